package dev.slipcase.redis.template;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A multi-tenant app that partitions by Redis database: 5,000 {@code INCR}s round-robin over 5
 * databases in batches of 10 (batch {@code i} goes to database {@code i % 5}), time to
 * completion. Slipcase pipelines each batch through {@link ValueBatch} on the database's shared
 * connection and waits once at the end; the baseline sends them one at a time through a
 * {@code StringRedisTemplate} per database (one connection factory per database, as Spring needs).
 * <pre>java -jar benchmarks/target/benchmarks.jar MultiTenantBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class MultiTenantBenchmark {

	private static final int DATABASES = 5;

	private static final int INCREMENTS = 5_000;

	private static final int BATCH = 10;

	@Param({ "slipcase-batch", "spring-one-at-a-time" })
	public String candidate;

	private RedisFixture redis;

	private final List<ValueTemplate<String>> tenants = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<StringRedisTemplate> springTenants = new ArrayList<>();

	private ValueTemplate<String> root;

	@Setup(Level.Trial)
	public void setUp() {
		this.redis = RedisFixture.start();
		this.root = ValueTemplate.create(this.redis.client(), this.redis.uri(),
				dev.slipcase.redis.codec.Utf8KeyFormat.INSTANCE);
		for (int database = 0; database < DATABASES; database++) {
			this.tenants.add(this.root.forDatabase(database));
			if ("spring-one-at-a-time".equals(this.candidate)) {
				LettuceConnectionFactory factory = this.redis.connectionFactory(database);
				this.factories.add(factory);
				this.springTenants.add(new StringRedisTemplate(factory));
			}
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.root.close();
		this.redis.close();
	}

	@Benchmark
	public long incrementAll() {
		return ("slipcase-batch".equals(this.candidate)) ? slipcaseBatches() : springOneAtATime();
	}

	private long slipcaseBatches() {
		List<CompletableFuture<Void>> batches = new ArrayList<>(INCREMENTS / BATCH);
		for (int batch = 0; batch < INCREMENTS / BATCH; batch++) {
			ValueBatch<String> commands = this.tenants.get(batch % DATABASES).batch();
			for (int i = 0; i < BATCH; i++) {
				commands.incrementBy("counter:" + i, 1);
			}
			batches.add(commands.execute());
		}
		CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new)).join();
		return batches.size();
	}

	private long springOneAtATime() {
		long last = 0;
		for (int batch = 0; batch < INCREMENTS / BATCH; batch++) {
			StringRedisTemplate tenant = this.springTenants.get(batch % DATABASES);
			for (int i = 0; i < BATCH; i++) {
				last = tenant.opsForValue().increment("counter:" + i);
			}
		}
		return last;
	}

}
