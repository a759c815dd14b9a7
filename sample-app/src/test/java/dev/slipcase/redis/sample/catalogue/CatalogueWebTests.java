package dev.slipcase.redis.sample.catalogue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.slipcase.redis.sample.SampleWebTests;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.compression.ZstdCompressor;
import dev.slipcase.redis.sharded.ShardedTemplate;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /products/{id}}, {@code GET /categories/{name}} and
 * {@code PUT /products/{id}/flags/{flag}} against a real Redis.
 */
class CatalogueWebTests extends SampleWebTests {

	@Autowired
	private ProductRepository repository;

	@Autowired
	@Qualifier("productViewsShardedTemplate")
	private ShardedTemplate<Long> views;

	@Autowired
	private RedisConnectionFactory connectionFactory;

	@Test
	void productReadTwiceComesFromTheCacheTheSecondTime() {
		redis().command("DEL", "products::7");
		long reads = this.repository.reads();
		ProductView first = getProduct(7);
		ProductView second = getProduct(7);
		assertThat(this.repository.reads() - reads).isEqualTo(1);
		assertThat(second.product()).isEqualTo(first.product());
		assertThat(first.product().name()).isEqualTo("Book #7");
		assertThat(first.product().addedAt()).isEqualTo(Instant.parse("2026-01-05T16:30:00Z"));
	}

	@Test
	void productIsCachedAsTypedJson() {
		redis().command("DEL", "products::8");
		getProduct(8);
		// one type behind the cache: plain JSON, no type id
		assertThat((String) redis().command("GET", "products::8")).startsWith("{\"id\":8,")
			.contains("\"addedAt\":\"2026-01-05T17:30:00Z\"");
	}

	@Test
	void everyViewIncrementsTheCounterStoredAsAHashField() {
		long before = getProduct(9).views();
		long after = getProduct(9).views();
		assertThat(after).isEqualTo(before + 1);
		int bucketSize = this.views.layout().bucketSize();
		String bucket = "~sc:{pv:n:" + (9 / bucketSize) + "}";
		assertThat(redis().command("HGET", bucket, Long.toString(9 % bucketSize))).isEqualTo(Long.toString(after));
		assertThat(redis().command("EXISTS", "views:9")).isEqualTo(0L);
	}

	@Test
	void flagsAreStoredShardedAndShownWithTheProduct() {
		this.client.put()
			.uri("/products/{id}/flags/{flag}?on=true", 12, "discount")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.discount")
			.isEqualTo(true);
		assertThat(getProduct(12).flags()).containsEntry("discount", true);
		this.client.put().uri("/products/{id}/flags/{flag}?on=false", 12, "discount").exchange().expectStatus().isOk();
		assertThat(getProduct(12).flags()).containsEntry("discount", false);
		assertThat(redis().command("EXISTS", "flags:12:discount")).isEqualTo(0L);
	}

	@Test
	void unknownFlagIsABadRequest() {
		this.client.put().uri("/products/1/flags/nope?on=true").exchange().expectStatus().isBadRequest();
	}

	@Test
	void unknownProductIsNotFound() {
		this.client.get().uri("/products/999999").exchange().expectStatus().isNotFound();
	}

	@Test
	void categoryListingReadTwiceComesFromTheCacheTheSecondTime() {
		redis().command("DEL", "categories::music");
		long reads = this.repository.reads();
		CategoryListing first = getCategory("music");
		CategoryListing second = getCategory("music");
		assertThat(this.repository.reads() - reads).isEqualTo(1);
		assertThat(first.products()).hasSize(150).allSatisfy((p) -> assertThat(p.category()).isEqualTo("music"));
		assertThat(second).isEqualTo(first);
	}

	@Test
	void categoryListingIsCachedAsProtostuffCompressedWithZstd() {
		redis().command("DEL", "categories::games");
		getCategory("games");
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			byte[] key = "categories::games".getBytes(StandardCharsets.UTF_8);
			byte[] head = connection.stringCommands().getRange(key, 0, 1);
			// docs/wire-format.md: the marker with zstd's compressor id, then the format id
			assertThat(head[0] & 0xFF).isEqualTo(FormatHeader.MARKER | ZstdCompressor.ID);
			assertThat(head[1] & 0xFF).isEqualTo(FormatHeader.PROTOSTUFF);
			assertThat(connection.stringCommands().strLen(key)).isLessThan(10_000L);
		}
	}

	@Test
	void unknownCategoryIsNotFound() {
		this.client.get().uri("/categories/garden").exchange().expectStatus().isNotFound();
	}

	private ProductView getProduct(long id) {
		return this.client.get()
			.uri("/products/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(ProductView.class)
			.returnResult()
			.getResponseBody();
	}

	private CategoryListing getCategory(String name) {
		return this.client.get()
			.uri("/categories/{name}", name)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(CategoryListing.class)
			.returnResult()
			.getResponseBody();
	}

}
