package dev.slipcase.redis.webflux;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import dev.slipcase.redis.template.ValueTemplates;
import dev.slipcase.redis.test.Wait;
import dev.slipcase.redis.test.leak.LeakReports;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files streamed through Redis by the WebFlux shop over real HTTP, as a user's stack runs them:
 * Reactor Netty's response writer (which asks for 128 buffers ahead) and request reader (a buffer
 * per network read). A client that stops reading holds the server to the download's window of
 * chunks, measured as the direct memory of the templates' allocator, for one client and for a
 * hundred; an upload sends one {@code APPEND} per chunk however the body arrives; a download
 * answers with its length, a missing file with a 404 problem, a key of another type with a 502
 * problem.
 */
@SpringBootTest(classes = ShopWebFluxApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class FileStreamingTests extends ShopOverHttp {

	private static final int MEGABYTE = 1024 * 1024;

	@Autowired
	private ValueTemplates templates;

	@Autowired
	@Qualifier("slipcaseBufferAllocator")
	private ByteBufAllocator allocator;

	private final List<Socket> clients = new ArrayList<>();

	@AfterEach
	void disconnect() throws Exception {
		for (Socket client : this.clients) {
			client.close();
		}
		Wait.until(Duration.ofSeconds(30), () -> ((Long) redis.command("DBSIZE")) <= 1L);
		LeakReports.assertNoLeaks("file streaming");
		redis.flushAll();
	}

	@Test
	void aClientThatStopsReadingA64MegabyteDownloadHoldsTheServerToTheWindow() throws Exception {
		Paused paused = pause(1, 64);
		System.out.printf("one paused client of 64 MB: %.1f MB of direct memory held, %d GETRANGEs; window %.1f MB%n",
				paused.held() / (double) MEGABYTE, paused.chunks(), window() / (double) MEGABYTE);
		assertThat(paused.held()).isLessThanOrEqualTo(window());
		// the chunks read from Redis: the window, and what the kernel's socket buffers took
		assertThat(paused.chunks()).isLessThanOrEqualTo(this.templates.transferWindow() + inTheKernel());
	}

	@Test
	void aHundredClientsThatStopReadingHoldNoMoreThanAHundredWindows() throws Exception {
		int clients = 100;
		Paused paused = pause(clients, 16);
		System.out.printf("%d paused clients of 16 MB: %.1f MB of direct memory held, %d GETRANGEs; %d windows %.1f MB%n",
				clients, paused.held() / (double) MEGABYTE, paused.chunks(), clients, clients * window() / (double) MEGABYTE);
		assertThat(paused.held()).isLessThanOrEqualTo(clients * window());
		assertThat(paused.chunks()).isLessThanOrEqualTo(clients * (this.templates.transferWindow() + inTheKernel()));
	}

	@Test
	void a64MegabyteUploadSendsOneCommandPerChunkHoweverTheBodyArrives() throws Exception {
		int size = 64 * MEGABYTE;
		byte[] file = randomBytes(size);
		upload("big", file, 64 * 1024); // loads the script that puts the value in place
		redis.command("CONFIG", "RESETSTAT");
		upload("big", file, 64 * 1024);
		long appends = redis.calls("append");
		long commands = redis.calls("set") + appends + redis.calls("evalsha") + redis.calls("eval");
		assertThat(download("big")).isEqualTo(file);
		// the first chunk goes in the SET that makes the temporary key, each further one in an
		// APPEND, and a script puts the value in place
		int chunks = size / this.templates.chunkSize();
		assertThat(appends).isEqualTo(chunks - 1);
		assertThat(commands).isEqualTo(chunks + 1);
		// times, printed for the report, not asserted: the first round above warmed both paths up
		long[] uploads = new long[3];
		long[] downloads = new long[3];
		for (int round = 0; round < 3; round++) {
			long started = System.nanoTime();
			upload("big", file, 64 * 1024);
			uploads[round] = (System.nanoTime() - started) / 1_000_000;
			started = System.nanoTime();
			download("big");
			downloads[round] = (System.nanoTime() - started) / 1_000_000;
		}
		System.out.printf("64 MB over HTTP, three rounds after one: uploads %s ms, downloads %s ms (%d APPENDs each)%n",
				Arrays.toString(uploads), Arrays.toString(downloads), appends);
	}

	@Test
	void aDownloadAnswersWithItsLengthAHeadWithItAloneAMissingFileWithA404Problem() {
		byte[] file = randomBytes(3 * MEGABYTE + 7);
		upload("small", file, 8 * 1024);
		Flux<DataBuffer> body = this.http.get()
			.uri("/files/small")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentLength(file.length)
			.expectHeader()
			.contentType(MediaType.APPLICATION_OCTET_STREAM)
			.returnResult(DataBuffer.class)
			.getResponseBody();
		assertThat(bytes(body)).isEqualTo(file);
		redis.command("CONFIG", "RESETSTAT");
		this.http.head()
			.uri("/files/small")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentLength(file.length)
			.expectBody()
			.isEmpty();
		assertThat(redis.calls("getrange")).as("a HEAD reads no chunk").isZero();
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
		this.http.get()
			.uri("/files/none")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody(ProblemDetail.class)
			.value((problem) -> assertThat(problem.getDetail()).isEqualTo("No file named 'none'"));
		redis.command("HSET", "file:hash", "field", "value");
		this.http.get()
			.uri("/files/hash")
			.exchange()
			.expectStatus()
			.isEqualTo(502)
			.expectBody(ProblemDetail.class)
			.value((problem) -> assertThat(problem.getDetail()).isEqualTo("The file store failed"));
		redis.command("DEL", "file:hash");
	}

	/**
	 * Uploads a file of {@code megabytes}, lets {@code clients} clients pause its download, and
	 * measures what the server then holds: the direct memory the templates' allocator holds beyond
	 * before (it reuses memory earlier transfers released, so this can read less than the chunks
	 * held, never more) and the chunks read from Redis.
	 */
	private Paused pause(int clients, int megabytes) throws Exception {
		upload("big", randomBytes(megabytes * MEGABYTE), 64 * 1024);
		long before = directMemory();
		redis.command("CONFIG", "RESETSTAT");
		pausedClients("big", clients);
		return new Paused(directMemory() - before, redis.calls("getrange"));
	}

	/** What the server holds for paused downloads: direct memory, and chunks read from Redis. */
	private record Paused(long held, long chunks) {
	}

	/**
	 * Opens {@code count} connections that ask for the file, read its first bytes and then read no
	 * more, and waits until the server stops reading from Redis for them.
	 */
	private void pausedClients(String name, int count) throws Exception {
		for (int i = 0; i < count; i++) {
			Socket client = new Socket();
			// a small receive buffer: the kernel holds little of what the server sends
			client.setReceiveBufferSize(16 * 1024);
			client.connect(new InetSocketAddress("localhost", this.port));
			this.clients.add(client);
			OutputStream out = client.getOutputStream();
			out.write(("GET /files/" + name + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = client.getInputStream();
			byte[] first = new byte[8 * 1024];
			assertThat(in.read(first)).isPositive();
		}
		// settled: no GETRANGE for half a second
		long last = -1;
		long calls = redis.calls("getrange");
		while (calls != last) {
			Thread.sleep(500);
			last = calls;
			calls = redis.calls("getrange");
		}
	}

	private long window() {
		return (long) this.templates.transferWindow() * this.templates.chunkSize();
	}

	/**
	 * The most chunks one paused connection's socket buffers can take: the server's send buffer
	 * (Linux grows it up to tcp_wmem's maximum) and the client's receive buffer.
	 */
	private long inTheKernel() throws IOException {
		Path wmem = Path.of("/proc/sys/net/ipv4/tcp_wmem");
		long sendBuffer = 4 * MEGABYTE;
		if (Files.exists(wmem)) {
			// min, default, max; /proc reports a size of 0, so read it as a stream
			try (InputStream in = Files.newInputStream(wmem)) {
				sendBuffer = Long.parseLong(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+")[2]);
			}
		}
		return (sendBuffer + 2 * 16 * 1024) / this.templates.chunkSize() + 1;
	}

	private long directMemory() {
		return ((ByteBufAllocatorMetricProvider) this.allocator).metric().usedDirectMemory();
	}

	private void upload(String name, byte[] file, int bufferSize) {
		Flux<DataBuffer> body = Flux.range(0, (file.length + bufferSize - 1) / bufferSize)
			.map((i) -> DefaultDataBufferFactory.sharedInstance.wrap(ByteBuffer.wrap(file, i * bufferSize,
					Math.min(bufferSize, file.length - i * bufferSize))));
		this.http.put()
			.uri("/files/" + name)
			.contentType(MediaType.APPLICATION_OCTET_STREAM)
			.body(body, DataBuffer.class)
			.exchange()
			.expectStatus()
			.isOk();
	}

	private byte[] download(String name) {
		return bytes(this.http.get()
			.uri("/files/" + name)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(DataBuffer.class)
			.getResponseBody());
	}

	private static byte[] bytes(Flux<DataBuffer> body) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		body.doOnNext((chunk) -> {
			byte[] part = new byte[chunk.readableByteCount()];
			chunk.read(part);
			DataBufferUtils.release(chunk);
			out.writeBytes(part);
		}).blockLast(Duration.ofSeconds(120));
		return out.toByteArray();
	}

	private static byte[] randomBytes(int size) {
		byte[] bytes = new byte[size];
		new Random(42).nextBytes(bytes);
		return bytes;
	}

}
