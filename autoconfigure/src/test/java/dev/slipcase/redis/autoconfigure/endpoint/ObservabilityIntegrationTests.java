package dev.slipcase.redis.autoconfigure.endpoint;

import java.util.List;

import dev.slipcase.redis.autoconfigure.endpoint.SlipcaseEndpoint.ShardedDescriptor;
import dev.slipcase.redis.autoconfigure.endpoint.SlipcaseEndpoint.SlipcaseDescriptor;
import dev.slipcase.redis.autoconfigure.metrics.SlipcaseMeters;
import dev.slipcase.redis.autoconfigure.metrics.SlipcaseMetricsAutoConfiguration;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.serializer.compression.Compressors;
import dev.slipcase.redis.sharded.BucketMemoryReport;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.sharded.ShardedTemplates;
import dev.slipcase.redis.template.ValueLease;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meters and the {@code slipcase} endpoint in an application context, fed by real traffic to the
 * shared real Redis: a {@code RedisTemplate} with a compressing Slipcase serializer, a
 * {@code ShardedTemplate} bean with a value too long for its bucket and a bucket flipped behind its
 * back, and a value lease.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ObservabilityIntegrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SlipcaseMetricsAutoConfiguration.class, SlipcaseEndpointAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withPropertyValues("management.endpoints.web.exposure.include=slipcase", "slipcase.redis.compression.min-size=64");

	private RedisServer server;

	private RedisClient client;

	private StatefulRedisConnection<String, String> raw;

	private ShardedTemplates shardedTemplates;

	private LettuceConnectionFactory connectionFactory;

	@BeforeAll
	void connect() {
		this.server = RedisServers.shared();
		this.client = RedisClient.create(this.server.endpoint().uri());
		this.raw = this.client.connect();
		this.shardedTemplates = ShardedTemplates.create(this.client);
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.endpoint().host(), this.server.endpoint().port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
	}

	@AfterAll
	void disconnect() {
		this.connectionFactory.destroy();
		this.shardedTemplates.close();
		this.raw.close();
		this.client.shutdown();
	}

	@Test
	void metersAndEndpointReportRealTraffic() {
		String name = "obs" + Long.toHexString(System.nanoTime());
		ShardedTemplate<String> sharded = this.shardedTemplates
			.template(ShardedNamespace.builder(name).keyPrefix(name + ":").build(), SlipcaseSerializers.string());
		SlipcaseRedisSerializer<String> compressed = SlipcaseSerializers.compressed(Utf8StringFormat.INSTANCE,
				Compressors.gzip(), 64);
		this.runner.withBean("users", ShardedTemplate.class, () -> sharded)
			.withBean("documentSerializer", RedisSerializer.class, () -> compressed)
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				SlipcaseEndpoint endpoint = context.getBean(SlipcaseEndpoint.class);

				// serializer traffic through Spring Data against Redis
				RedisTemplate<String, String> template = new RedisTemplate<>();
				template.setConnectionFactory(this.connectionFactory);
				template.setKeySerializer(SlipcaseSerializers.string());
				template.setValueSerializer(compressed);
				template.afterPropertiesSet();
				String document = "a document that compresses well. ".repeat(40);
				template.opsForValue().set(name + ":doc", document);
				assertThat(template.opsForValue().get(name + ":doc")).isEqualTo(document);

				// sharded: one value too long for a bucket, and a bucket flipped by a foreign write
				int limit = sharded.limits().maxValueBytes();
				sharded.set(name + ":a", "small");
				sharded.set(name + ":b", "x".repeat(limit + 1));
				// the bucket hash holding "a" (overflow keys are named <bucket>:<field>)
				String bucket = this.raw.sync().keys("~sc:{" + name + ":h:*").stream()
					.filter((key) -> key.endsWith("}"))
					.findFirst()
					.orElseThrow();
				this.raw.sync().hset(bucket, "foreign", "f".repeat(limit + 100));

				// a lease held open, then closed
				Gauge leases = registry.get(SlipcaseMeters.LEASES_ACTIVE).gauge();
				try (ValueTemplate<String> values = ValueTemplate.create(this.client,
						RedisURI.create(this.server.endpoint().uri()), Utf8StringFormat.INSTANCE)) {
					values.set(name + ":leased", "leased bytes");
					try (ValueLease lease = values.lease(name + ":leased")) {
						assertThat(lease).isNotNull();
						assertThat(leases.value()).isEqualTo(1);
						double bufferMemory = registry.get(SlipcaseMeters.BUFFER_MEMORY).gauges().stream()
							.mapToDouble(Gauge::value)
							.sum();
						assertThat(bufferMemory).isPositive();
					}
					assertThat(leases.value()).isZero();
				}

				// the endpoint: configuration and a fresh memory report
				SlipcaseDescriptor descriptor = endpoint.slipcase();
				assertThat(descriptor.properties()).containsEntry("slipcase.redis.compression.min-size", "64");
				assertThat(descriptor.serializers().get("documentSerializer").format()).isEqualTo("string+gzip");
				ShardedDescriptor users = descriptor.sharded().get(name);
				assertThat(users.error()).isNull();
				BucketMemoryReport report = users.memory();
				assertThat(report.flippedBuckets()).isEqualTo(1);
				assertThat(report.flippedBucketKeys()).containsExactly(bucket);
				// "a", the overflow marker of "b" and the foreign field, in one bucket or two
				long fields = this.raw.sync().keys("~sc:{" + name + ":h:*").stream()
					.filter((key) -> key.endsWith("}"))
					.mapToLong((key) -> this.raw.sync().hlen(key))
					.sum();
				assertThat(fields).isEqualTo(3);
				assertThat(report.fields()).isEqualTo(fields);
				assertThat(report.bytes()).isPositive();
				assertThat(endpoint.namespace(name).flippedBuckets()).isEqualTo(1);
				String json = JsonMapper.builder().build().writeValueAsString(descriptor);
				assertThat(json).contains("\"flippedBuckets\":1", "\"slipcase.redis.compression.min-size\":\"64\"");

				// the meters
				DistributionSummary written = registry.get(SlipcaseMeters.SERIALIZER_BYTES)
					.tags("format", "string+gzip", "direction", "write")
					.summary();
				assertThat(written.count()).isEqualTo(1);
				assertThat(written.totalAmount()).isPositive().isLessThan(document.length());
				assertThat(registry.get(SlipcaseMeters.SERIALIZER_BYTES).tags("format", "string+gzip", "direction", "read")
					.summary()
					.totalAmount()).isEqualTo(written.totalAmount());
				assertThat(registry.get(SlipcaseMeters.COMPRESSION_RATIO).tag("compressor", "gzip").summary().mean())
					.isGreaterThan(5);
				assertThat(registry.get(SlipcaseMeters.OVERFLOW_WRITES).tag("namespace", name).counter().count())
					.isEqualTo(1);
				assertThat(registry.get(SlipcaseMeters.FLIPPED_BUCKETS).tag("namespace", name).gauge().value())
					.isEqualTo(1);
				assertThat(registry.get(SlipcaseMeters.SERIALIZER_BYTES).tags("format", "string", "direction", "write")
					.summary()
					.count()).isGreaterThanOrEqualTo(List.of("small", "x").size());
			});
	}

	@Test
	void aNamespaceWhoseReportFailsShowsTheErrorAndTheRestIsReturned() {
		String name = "gone" + Long.toHexString(System.nanoTime());
		ShardedTemplates closed = ShardedTemplates.create(this.client);
		ShardedTemplate<String> broken = closed.template(ShardedNamespace.builder(name).keyPrefix(name + ":").build(),
				SlipcaseSerializers.string());
		closed.close();
		this.runner.withBean("gone", ShardedTemplate.class, () -> broken).run((context) -> {
			SlipcaseDescriptor descriptor = context.getBean(SlipcaseEndpoint.class).slipcase();
			ShardedDescriptor gone = descriptor.sharded().get(name);
			assertThat(gone.memory()).isNull();
			assertThat(gone.error()).isNotBlank();
			assertThat(gone.layout().namespace()).isEqualTo(name);
			assertThat(descriptor.properties()).containsEntry("slipcase.redis.compression.min-size", "64");
		});
	}

}
