package dev.slipcase.redis.template;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.benchmark.Payload;
import org.jspecify.annotations.Nullable;
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

/**
 * SET then GET of one payload against a real local Redis (started for the trial), through each
 * candidate side by side: Slipcase's {@link ValueTemplate} (JSON decoded where it is cheapest, the
 * default; JSON decoded on the event loop only; Fory), Spring Data's {@code RedisTemplate}
 * with Slipcase's typed JSON and Fory serializers, with {@code GenericJacksonJsonRedisSerializer} and
 * with {@code JdkSerializationRedisSerializer},
 * and raw Lettuce {@code ByteArrayCodec} with Jackson. Every candidate shares one connection
 * between the benchmark threads; each thread uses its own key. Run with {@code -t 1} and
 * {@code -t 8} and {@code -t 64}, each with its connection's writes coalesced and each command
 * written on its own; {@code -prof gc} for bytes allocated per operation and
 * {@link dev.slipcase.redis.benchmark.ProcessCostProfiler} for system calls per command:
 * <pre>java -jar benchmarks/target/benchmarks.jar TemplateBenchmark -t 8 -prof gc -prof dev.slipcase.redis.benchmark.ProcessCostProfiler:commands=2</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class TemplateBenchmark {

	/** The server and the candidate, shared by the benchmark threads. */
	@State(Scope.Benchmark)
	public static class Shared {

		@Param({ "ORDER", "DOCUMENT" })
		public Payload payload;

		@Param({ "slipcase-json", "slipcase-json-event-loop-decode", "slipcase-json-caller-thread-decode", "slipcase-fory", "spring-slipcase-json",
				"spring-slipcase-fory", "spring-generic-json", "spring-jdk", "lettuce-bytes-jackson" })
		public String candidate;

		/**
		 * How the candidate's connection writes: {@code coalesced} (the commands of concurrent
		 * callers in one socket write) or {@code each} (every command on its own, Lettuce's default);
		 * {@code -p writes=coalesced_netty_loop} coalesces on Netty's own NIO event loop instead of
		 * Slipcase's, and {@code -p writes=coalesced_no_busy_poll} on Slipcase's loop blocking at
		 * once when it runs out of work.
		 */
		@Param({ "coalesced", "each" })
		public String writes;

		RedisFixture redis;

		TemplateCandidates.Candidate client;

		Object value;

		final AtomicInteger threads = new AtomicInteger();

		@Setup(Level.Trial)
		public void setUp() {
			this.redis = RedisFixture.start();
			this.client = TemplateCandidates.create(this.candidate, this.payload, this.redis,
					RedisFixture.Writes.valueOf(this.writes.toUpperCase(Locale.ROOT)));
			this.value = this.payload.value();
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			this.client.close();
			this.redis.close();
		}

	}

	/** Each thread's own key. */
	@State(Scope.Thread)
	public static class PerThread {

		String key;

		@Setup(Level.Trial)
		public void setUp(Shared shared) {
			this.key = "bench:" + shared.threads.incrementAndGet();
		}

	}

	@Benchmark
	public @Nullable Object setThenGet(Shared shared, PerThread thread) {
		return shared.client.setGet(thread.key, shared.value);
	}

}
