package dev.slipcase.redis.metrics;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.sharded.BucketMemoryReport;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.sharded.ShardedTemplates;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/** What a sharded template reports, against the shared real Redis. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedObservationTests {

	private RedisClient client;

	private StatefulRedisConnection<String, String> connection;

	private ShardedTemplates templates;

	private final CountingObserver observer = new CountingObserver();

	private SlipcaseObservers.Registration registration;

	@BeforeAll
	void connect() {
		this.client = RedisClient.create(RedisServers.shared().endpoint().uri());
		this.connection = this.client.connect();
		this.templates = ShardedTemplates.create(this.client);
	}

	@AfterAll
	void disconnect() {
		this.templates.close();
		this.connection.close();
		this.client.shutdown();
	}

	@BeforeEach
	void register() {
		this.registration = SlipcaseObservers.register(this.observer);
	}

	@AfterEach
	void unregister() {
		this.registration.close();
	}

	private ShardedTemplate<String> template(String name) {
		String unique = name + Long.toHexString(System.nanoTime());
		return this.templates.template(ShardedNamespace.builder(unique).keyPrefix(unique + ":").build(),
				StringRedisSerializer.UTF_8);
	}

	@Test
	void valuesTooLongForABucketAreReportedAsOverflowWrites() {
		ShardedTemplate<String> template = template("ovf");
		String prefix = template.namespace().keyPrefix();
		int limit = template.limits().maxValueBytes();
		template.set(prefix + "1", "small");
		template.set(prefix + "2", "x".repeat(limit + 1));
		template.multiSet(Map.of(prefix + "3", "y".repeat(limit + 10), prefix + "4", "z".repeat(limit + 20),
				prefix + "5", "tiny"));
		assertThat(this.observer.count(this.observer.overflowWrites, template.namespace().name())).isEqualTo(3);
		assertThat(template.get(prefix + "3")).hasSize(limit + 10);
	}

	@Test
	void memoryReportIsReportedWithItsFlippedBuckets() {
		ShardedTemplate<String> template = template("mem");
		String prefix = template.namespace().keyPrefix();
		for (int i = 0; i < 20; i++) {
			template.set(prefix + "k" + i, "value " + i);
		}
		String bucket = this.connection.sync().keys("~sc:{" + template.namespace().alias() + ":h:*").stream()
			.filter((key) -> key.endsWith("}"))
			.findFirst()
			.orElseThrow();
		// a foreign write of a long field makes this bucket leave the compact encoding
		this.connection.sync().hset(bucket, "foreign", "f".repeat(template.limits().maxValueBytes() + 100));
		BucketMemoryReport report = template.memoryReport(1000);
		assertThat(report.flippedBuckets()).isEqualTo(1);
		assertThat(this.observer.reports)
			.containsExactly(List.of(report.namespace(), report.sampledBuckets(), report.flippedBuckets()));
	}

}
