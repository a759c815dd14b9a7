package dev.slipcase.redis.sample.document;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import dev.slipcase.redis.sample.SampleWebTests;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /documents/{name}} (streamed from a lease) and {@code PUT /documents/{name}}
 * (streamed into Redis) against a real Redis.
 */
class DocumentWebTests extends SampleWebTests {

	@Autowired
	private RedisConnectionFactory connectionFactory;

	@Test
	void seededDocumentIsStreamedByteForByte() {
		byte[] stored = stored(Documents.key(Documents.PRICE_LIST));
		assertThat(stored).hasSizeGreaterThan(200_000);
		byte[] streamed = download(Documents.PRICE_LIST);
		assertThat(streamed).isEqualTo(stored);
		assertThat(new String(streamed, 0, 40, StandardCharsets.UTF_8)).startsWith("week;id;name;category;price");
	}

	@Test
	void uploadedDocumentIsStoredAndStreamedBack() {
		byte[] content = new byte[300_000];
		new Random(42).nextBytes(content);
		this.client.put()
			.uri("/documents/{name}", "random")
			.contentType(MediaType.APPLICATION_OCTET_STREAM)
			.body(content)
			.exchange()
			.expectStatus()
			.isNoContent();
		assertThat(stored(Documents.key("random"))).isEqualTo(content);
		assertThat(download("random")).isEqualTo(content);
	}

	@Test
	void missingDocumentIsNotFound() {
		this.client.get().uri("/documents/{name}", "no-such-document").exchange().expectStatus().isNotFound();
	}

	private byte[] download(String name) {
		return this.client.get()
			.uri("/documents/{name}", name)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_OCTET_STREAM)
			.expectBody(byte[].class)
			.returnResult()
			.getResponseBody();
	}

	private byte[] stored(String key) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			return connection.stringCommands().get(key.getBytes(StandardCharsets.UTF_8));
		}
	}

}
