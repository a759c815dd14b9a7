package dev.slipcase.redis.serializer;

import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.benchmark.Payload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Serialize, deserialize and round trip of each payload through each serializer, Slipcase's and
 * Spring Data's side by side. Run with {@code -prof gc} for bytes allocated per operation:
 * <pre>java -jar benchmarks/target/benchmarks.jar SerializerBenchmark -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SerializerBenchmark {

	@Param({ "SMALL", "ORDER", "DOCUMENT", "LIST_50", "LIST_50K" })
	public Payload payload;

	@Param({ "spring-generic-json", "spring-typed-json", "spring-jdk", "slipcase-json", "slipcase-protostuff", "slipcase-fory",
			"slipcase-fory-lz4", "redisson-kryo5", "redisson-fory" })
	public String serializer;

	private RedisSerializer<Object> candidate;

	private Object value;

	private Class<?> type;

	private byte[] stored;

	@Setup
	public void setUp() {
		this.candidate = SerializerCandidates.create(this.serializer, this.payload);
		this.value = this.payload.value();
		this.type = this.value.getClass();
		this.stored = this.candidate.serialize(this.value);
	}

	@Benchmark
	public byte[] serialize() {
		return this.candidate.serialize(this.value);
	}

	@Benchmark
	public Object deserialize() {
		return this.candidate.deserialize(this.stored, this.type);
	}

	@Benchmark
	public Object roundTrip() {
		return this.candidate.deserialize(this.candidate.serialize(this.value), this.type);
	}

}
