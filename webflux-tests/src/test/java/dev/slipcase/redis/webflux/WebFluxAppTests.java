package dev.slipcase.redis.webflux;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import dev.slipcase.redis.test.Wait;
import dev.slipcase.redis.test.leak.LeakReports;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseCookie;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebFlux shop over real HTTP (a Netty server on a free port, a real HTTP client) against a
 * real Redis: a cached {@code Mono} stored as plain JSON, a form login whose session Redis holds in
 * Slipcase's format, a view counter in a sharded namespace that many concurrent requests increment, 50 MB streamed up and down through the reactive template, and a client that
 * goes away mid-download leaving no buffer (the leak detector runs at paranoid and fails the run on
 * any leak) and no temporary key behind.
 */
@SpringBootTest(classes = ShopWebFluxApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WebFluxAppTests extends ShopOverHttp {

	private static final int MEGABYTE = 1024 * 1024;

	@Autowired
	private ProductCatalog catalog;

	@Test
	void aCachedMonoIsServedFromRedisWhereItIsPlainJson() {
		int before = this.catalog.lookups();
		for (int i = 0; i < 3; i++) {
			this.http.get().uri("/products/7").exchange().expectStatus().isOk().expectBody(Product.class)
				.isEqualTo(Product.sample(7));
		}
		assertThat(this.catalog.lookups() - before).isEqualTo(1);
		assertThat((String) redis.command("GET", "products::7")).startsWith("{\"id\":7,\"name\":\"product 7\"")
			.contains("\"listed\":\"2026-11-25T10:15:30Z\"")
			.doesNotContain("Product");
	}

	@Test
	void aFormLoginLivesInARedisBackedSessionInSlipcasesFormat() {
		ResponseCookie session = this.http.post()
			.uri("/login")
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.body(BodyInserters.fromFormData("username", "ada").with("password", "lovelace"))
			.exchange()
			.expectStatus()
			.is3xxRedirection()
			.returnResult(Void.class)
			.getResponseCookies()
			.getFirst("SESSION");
		assertThat(session).isNotNull();
		this.http.get().uri("/me").cookie("SESSION", session.getValue()).exchange().expectBody(String.class)
			.isEqualTo("ada 1");
		this.http.get().uri("/me").cookie("SESSION", session.getValue()).exchange().expectBody(String.class)
			.isEqualTo("ada 2");
		this.http.get().uri("/me").exchange().expectStatus().is3xxRedirection();
		List<?> keys = (List<?>) redis.command("KEYS", "spring:session:sessions:*");
		assertThat(keys).hasSize(1);
		String securityContext = (String) redis.command("HGET", (String) keys.get(0), "sessionAttr:SPRING_SECURITY_CONTEXT");
		assertThat(securityContext).startsWith("{\"@class\":").contains("\"ada\"").doesNotContain("lovelace");
	}

	@Test
	void aShardedCounterCountsEveryConcurrentRequestOnceInACompactBucket() {
		WebClient client = WebClient.create("http://localhost:" + this.port);
		int requests = 400;
		Flux.range(0, requests)
			.flatMap((i) -> client.post().uri("/products/{id}/views", 7 + (i % 2)).retrieve().bodyToMono(Long.class), 32)
			.blockLast(Duration.ofMinutes(1));
		this.http.get().uri("/products/7/views").exchange().expectBody(Long.class).isEqualTo((long) requests / 2);
		this.http.get().uri("/products/8/views").exchange().expectBody(Long.class).isEqualTo((long) requests / 2);
		this.http.get().uri("/products/9/views").exchange().expectBody(Long.class).isEqualTo(0L);
		List<?> buckets = (List<?>) redis.command("KEYS", "*{page-views:n:*");
		assertThat(buckets).singleElement()
			.satisfies((bucket) -> assertThat(redis.command("OBJECT", "ENCODING", (String) bucket)).isEqualTo("listpack"));
		assertThat(redis.command("EXISTS", "views:7")).isEqualTo(0L);
	}

	@Test
	void fiftyMegabytesStreamUpAndDownThroughRedis() throws Exception {
		int size = 50 * MEGABYTE;
		this.http.put()
			.uri("/files/big")
			.contentType(MediaType.APPLICATION_OCTET_STREAM)
			.body(randomChunks(size, 64 * 1024), DataBuffer.class)
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(redis.command("STRLEN", "file:big")).isEqualTo((long) size);
		MessageDigest received = sha256();
		long bytes = this.http.get()
			.uri("/files/big")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(DataBuffer.class)
			.getResponseBody()
			.map((chunk) -> {
				int length = chunk.readableByteCount();
				byte[] part = new byte[length];
				chunk.read(part);
				DataBufferUtils.release(chunk);
				received.update(part);
				return (long) length;
			})
			.reduce(0L, Long::sum)
			.block(Duration.ofSeconds(60));
		assertThat(bytes).isEqualTo(size);
		MessageDigest sent = sha256();
		randomChunks(size, 64 * 1024).doOnNext((chunk) -> {
			byte[] part = new byte[chunk.readableByteCount()];
			chunk.read(part);
			sent.update(part);
		}).blockLast();
		assertThat(received.digest()).isEqualTo(sent.digest());
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
	}

	@Test
	void aClientThatGoesAwayMidDownloadLeavesNoBufferAndNoTemporaryKey() throws Exception {
		int size = 20 * MEGABYTE;
		this.http.put().uri("/files/big").body(randomChunks(size, 64 * 1024), DataBuffer.class).exchange()
			.expectStatus().isOk();
		// a client of its own socket, outside the test's Netty: what leaks is the server's
		long received = 0;
		try (Socket client = new Socket("localhost", this.port)) {
			client.getOutputStream().write("GET /files/big HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			InputStream in = client.getInputStream();
			byte[] part = new byte[64 * 1024];
			while (received < 3 * 256 * 1024) {
				int read = in.read(part);
				assertThat(read).isPositive();
				received += read;
			}
		}
		assertThat(received).isPositive().isLessThan(size);
		Wait.until(Duration.ofSeconds(10), () -> ((Long) redis.command("DBSIZE")) == 1L);
		LeakReports.assertNoLeaks("a download its client left after three chunks");
	}

	@Test
	void aMissingFileIsNotFound() {
		this.http.get().uri("/files/none").exchange().expectStatus().isNotFound().expectBody(ProblemDetail.class)
			.value((problem) -> assertThat(problem.getStatus()).isEqualTo(404));
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(0L);
	}

	private static Flux<DataBuffer> randomChunks(int size, int chunk) {
		Random random = new Random(42);
		return Flux.range(0, (size + chunk - 1) / chunk).map((i) -> {
			byte[] bytes = new byte[Math.min(chunk, size - i * chunk)];
			random.nextBytes(bytes);
			return DefaultDataBufferFactory.sharedInstance.wrap(bytes);
		});
	}

	private static MessageDigest sha256() throws NoSuchAlgorithmException {
		return MessageDigest.getInstance("SHA-256");
	}

}
