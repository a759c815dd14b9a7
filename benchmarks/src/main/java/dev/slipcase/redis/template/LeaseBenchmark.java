package dev.slipcase.redis.template;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.benchmark.Payload;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reading the raw bytes of the ~70 KB document from a real local Redis: a {@link ValueLease}
 * (pooled buffer, released by the caller) side by side with raw Lettuce {@code ByteArrayCodec},
 * which builds a {@code byte[]} per read. Run with {@code -prof gc}: the lease's target is under
 * 1 KB allocated per read.
 * <pre>java -jar benchmarks/target/benchmarks.jar LeaseBenchmark -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class LeaseBenchmark {

	private static final String KEY = "document";

	@Param({ "slipcase-lease", "lettuce-byte-array" })
	public String reader;

	private RedisFixture redis;

	private ValueTemplate<Object> template;

	private StatefulRedisConnection<byte[], byte[]> bytes;

	private final byte[] rawKey = KEY.getBytes(StandardCharsets.UTF_8);

	@Setup(Level.Trial)
	public void setUp() {
		this.redis = RedisFixture.start();
		this.template = ValueTemplate.create(this.redis.client(), this.redis.uri(),
				TemplateCandidates.slipcaseJson(Payload.DOCUMENT));
		this.template.set(KEY, Payload.DOCUMENT.value());
		this.bytes = this.redis.client().connect(ByteArrayCodec.INSTANCE, this.redis.uri());
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.bytes.close();
		this.template.close();
		this.redis.close();
	}

	@Benchmark
	public void read(Blackhole blackhole) {
		if ("slipcase-lease".equals(this.reader)) {
			try (ValueLease lease = this.template.lease(KEY)) {
				blackhole.consume(lease.content().getByte(lease.size() - 1));
			}
		}
		else {
			byte[] value = this.bytes.sync().get(this.rawKey);
			blackhole.consume(value[value.length - 1]);
		}
	}

}
