package dev.slipcase.redis.template;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheTracking;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ValueTemplate} view with a near tier ({@link ValueTemplate#withNearCache}) against a
 * real Redis (7.0): reads served without a command, another client's write seen once Redis'
 * invalidation arrives, this instance's own writes read at once through every write path, values a
 * reader could change decoded for each read, and the tier dropped by views of another database or
 * format.
 */
class NearValueTemplateTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(15);

	/** An immutable value: held as it is. */
	record Product(long id, String name) {
	}

	/** A value with a list that JSON decodes into an ArrayList: held encoded. */
	record Basket(long id, List<String> items) {
	}

	private RedisServer redis;

	private RedisClient client;

	private NearCache products;

	private NearCache baskets;

	private NearCacheTracking tracking;

	@BeforeEach
	void start() throws InterruptedException {
		this.redis = RedisServers.start();
		this.client = RedisClient.create();
		RedisURI uri = RedisURI.create(this.redis.endpoint().uri());
		this.products = new NearCache("products", 1_000, null);
		this.baskets = new NearCache("baskets", 1_000, null);
		this.tracking = NearCacheTracking.start(Connectors.of(this.client, uri, StringCodec.UTF8),
				Map.of("product:", this.products, "basket:", this.baskets), Duration.ofMillis(500));
		Wait.until(TIMEOUT, this.tracking::isTracking);
	}

	@AfterEach
	void stop() throws Exception {
		this.tracking.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.redis.close();
	}

	private <V> ValueTemplate<V> template(Class<V> type, NearCache near) {
		return ValueTemplate.create(this.client, RedisURI.create(this.redis.endpoint().uri()), JsonFormat.of(type))
			.withNearCache(near);
	}

	@Test
	void hitsSendNoCommandAndAnotherClientsWriteIsSeen() throws Exception {
		try (ValueTemplate<Product> template = template(Product.class, this.products)) {
			template.set("product:1", new Product(1, "pen"));
			// Redis' invalidation of this set evicts what a read stores before it arrives: let it arrive
			Wait.until(TIMEOUT, () -> this.products.invalidations() >= 1);
			assertThat(template.get("product:1")).isEqualTo(new Product(1, "pen"));
			Wait.until(TIMEOUT, () -> this.products.peek("product:1") != null || template.get("product:1") == null);
			long gets = this.redis.calls("get");
			for (int i = 0; i < 100; i++) {
				assertThat(template.get("product:1")).isEqualTo(new Product(1, "pen"));
				assertThat(template.async().get("product:1").join()).isEqualTo(new Product(1, "pen"));
				assertThat(template.reactive().get("product:1").block()).isEqualTo(new Product(1, "pen"));
			}
			assertThat(this.redis.calls("get")).as("GETs for 300 near reads").isEqualTo(gets);

			this.redis.command("SET", "product:1", "{\"id\":1,\"name\":\"ink\"}");
			Wait.until(TIMEOUT, () -> new Product(1, "ink").equals(template.get("product:1")));
		}
	}

	@Test
	void everyWritePathIsReadAtOnce() throws Exception {
		// a tier no tracking feeds: only this instance's own forgetting can keep it correct
		NearCache untracked = new NearCache("untracked", 1_000, null);
		untracked.trackingTrusted();
		try (ValueTemplate<Product> template = template(Product.class, untracked)) {
			List<Runnable> writes = new ArrayList<>();
			writes.add(() -> template.set("product:2", new Product(2, "set")));
			writes.add(() -> template.set("product:2", new Product(2, "set with ttl"), Duration.ofMinutes(1)));
			writes.add(() -> template.setIfPresent("product:2", new Product(2, "set if present"), null));
			writes.add(() -> template.mset(Map.of("product:2", new Product(2, "mset"))));
			writes.add(() -> template.async().set("product:2", new Product(2, "async set")).join());
			writes.add(() -> template.reactive().set("product:2", new Product(2, "reactive set")).block());
			writes.add(() -> upload(template, "product:2", new Product(2, "uploaded")));
			writes.add(() -> template.reactive()
				.upload("product:2", Flux.just(DefaultDataBufferFactory.sharedInstance
					.wrap(encoded(template, new Product(2, "reactive upload")))))
				.block());
			for (Runnable write : writes) {
				// hold the current value, write, and read the write back at once: never the held one
				Product before = template.get("product:2");
				template.get("product:2");
				write.run();
				assertThat(template.get("product:2")).isNotEqualTo(before).isNotNull();
			}
			template.delete("product:2");
			assertThat(template.get("product:2")).isNull();
			template.set("product:2", new Product(2, "again"));
			template.get("product:2");
			assertThat(template.getAndDelete("product:2")).isEqualTo(new Product(2, "again"));
			assertThat(template.get("product:2")).isNull();
			template.setIfAbsent("product:2", new Product(2, "if absent"), null);
			assertThat(template.get("product:2")).isEqualTo(new Product(2, "if absent"));
			assertThat(untracked.hits()).as("reads served by the tier between the writes").isPositive();
		}
	}

	/** The bytes {@code template} stores for {@code value}, read back from Redis. */
	private static byte[] encoded(ValueTemplate<Product> template, Product value) {
		try {
			template.set("product:encoded", value);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			template.download("product:encoded", out);
			return out.toByteArray();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void upload(ValueTemplate<Product> template, String key, Product value) {
		byte[] bytes = encoded(template, value);
		try {
			template.upload(key, new ByteArrayInputStream(bytes), bytes.length);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Test
	void aValueAReaderCouldChangeIsDecodedForEachRead() throws Exception {
		try (ValueTemplate<Basket> template = template(Basket.class, this.baskets)) {
			template.set("basket:1", new Basket(1, List.of("pen")));
			Basket first = template.get("basket:1");
			Wait.until(TIMEOUT, () -> this.baskets.peek("basket:1") != null || template.get("basket:1") == null);
			Basket held = template.get("basket:1");
			held.items().clear();
			assertThat(template.get("basket:1")).isNotSameAs(held).isEqualTo(first);
			assertThat(this.baskets.hits()).isPositive();
		}
	}

	@Test
	void aBatchReadDoesNotHoldUpOtherReadersUntilItIsExecuted() throws Exception {
		try (ValueTemplate<Product> template = template(Product.class, this.products)) {
			template.set("product:5", new Product(5, "pen"));
			ValueBatch<Product> batch = template.batch();
			java.util.concurrent.CompletableFuture<Product> batched = batch.get("product:5");
			// a reader of the same key, before the batch is sent: it must not wait for the batch
			Product read = java.util.concurrent.CompletableFuture.supplyAsync(() -> template.get("product:5"))
				.get(10, java.util.concurrent.TimeUnit.SECONDS);
			assertThat(read).isEqualTo(new Product(5, "pen"));
			batch.execute().join();
			assertThat(batched.join()).isEqualTo(new Product(5, "pen"));
		}
	}

	@Test
	void viewsOfAnotherDatabaseOrFormatHaveNoNearTier() throws Exception {
		try (ValueTemplate<Product> template = template(Product.class, this.products)) {
			template.set("product:3", new Product(3, "pen"));
			template.get("product:3");
			long reads = this.products.hits() + this.products.misses();
			template.forDatabase(0).get("product:3");
			assertThat(this.products.hits() + this.products.misses()).as("same database keeps it").isEqualTo(reads + 1);
			template.forDatabase(1).get("product:3");
			template.withFormat(JsonFormat.of(Basket.class)).get("basket:9");
			assertThat(this.products.hits() + this.products.misses()).isEqualTo(reads + 1);
		}
	}

}
