package dev.slipcase.redis.template;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

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
 * What the event loop's busy poll costs an application that is not busy: one caller does a SET
 * then a GET of one payload through {@link ValueTemplate} against a real local Redis, then pauses
 * for {@code pauseMicros} before the next pair, on Slipcase's event loop with its adaptive poll
 * ({@code coalesced}) and without it ({@code coalesced_no_busy_poll}). With
 * {@link dev.slipcase.redis.benchmark.ProcessCostProfiler} it reports the client's CPU per command,
 * the figure the poll adds to where commands come further apart than its window:
 * <pre>java -jar benchmarks/target/benchmarks.jar PacedTemplateBenchmark -prof dev.slipcase.redis.benchmark.ProcessCostProfiler:commands=2</pre>
 * Not part of the report's suite: its throughput is mostly the pause.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PacedTemplateBenchmark {

	/** The server and the template; one benchmark thread. */
	@State(Scope.Benchmark)
	public static class Shared {

		/** How long the caller pauses after each SET+GET pair, µs (0: not at all). */
		@Param({ "0", "50", "150", "500", "2000" })
		public long pauseMicros;

		/** Slipcase's event loop with its busy poll, or blocking at once when it runs out of work. */
		@Param({ "coalesced", "coalesced_no_busy_poll" })
		public String writes;

		RedisFixture redis;

		TemplateCandidates.Candidate client;

		Object value;

		@Setup(Level.Trial)
		public void setUp() {
			this.redis = RedisFixture.start();
			this.client = TemplateCandidates.create("slipcase-json", Payload.ORDER, this.redis,
					RedisFixture.Writes.valueOf(this.writes.toUpperCase(Locale.ROOT)));
			this.value = Payload.ORDER.value();
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			this.client.close();
			this.redis.close();
		}

	}

	@Benchmark
	public @Nullable Object setThenGetThenPause(Shared shared) {
		Object value = shared.client.setGet("bench:paced", shared.value);
		if (shared.pauseMicros > 0) {
			LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(shared.pauseMicros));
		}
		return value;
	}

}
