package dev.slipcase.redis.template;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.serializer.BytesFormat;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
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
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

/**
 * A {@value #MEGABYTES} MB value moved between the JVM and a real local Redis: streamed out of
 * Redis by {@link ReactiveValueTemplate#download} (in the template's default chunks, each released
 * once read, as WebFlux does once it wrote one) and into it by {@link ReactiveValueTemplate#upload}
 * (from {@value #CHUNK}-byte heap buffers, as a WebFlux request body arrives, written in the
 * template's chunks), beside one
 * {@code GET} / {@code SET} of the same bytes with raw Lettuce and a {@code byte[]}, the fastest
 * way to move them that holds the whole value in memory. Scores are milliseconds per value; the
 * heap each way holds is measured by {@link StreamingMemoryReport}.
 * <pre>java -jar benchmarks/target/benchmarks.jar StreamingBenchmark -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StreamingBenchmark {

	/** The size of the value, in MB. */
	static final int MEGABYTES = 50;

	/** The size of the heap buffers an upload's request body arrives in. */
	static final int CHUNK = 64 * 1024;

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static final String KEY = "bench:file";

	@Param({ "slipcase-reactive-stream", "lettuce-single-command" })
	public String candidate;

	private RedisFixture redis;

	private ValueTemplate<byte[]> template;

	private ReactiveValueTemplate<byte[]> reactive;

	private StatefulRedisConnection<byte[], byte[]> lettuce;

	private RedisCommands<byte[], byte[]> commands;

	private byte[] value;

	@Setup(Level.Trial)
	public void setUp() {
		this.redis = RedisFixture.start();
		this.value = value();
		// the template's own chunk size for its commands, as an application has it
		this.template = ValueTemplate.create(this.redis.client(), this.redis.uri(), BytesFormat.INSTANCE);
		this.reactive = this.template.reactive();
		this.lettuce = this.redis.client().connect(ByteArrayCodec.INSTANCE, this.redis.uri());
		this.lettuce.setTimeout(WAIT);
		this.commands = this.lettuce.sync();
		this.commands.set(KEY.getBytes(), this.value);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.lettuce.close();
		this.template.close();
		this.redis.close();
	}

	/** The value out of Redis; the bytes read. */
	@Benchmark
	public long download() {
		if (this.candidate.equals("lettuce-single-command")) {
			return this.commands.get(KEY.getBytes()).length;
		}
		return this.reactive.download(KEY)
			.map((chunk) -> {
				int size = chunk.readableByteCount();
				DataBufferUtils.release(chunk);
				return (long) size;
			})
			.reduce(0L, Long::sum)
			.block(WAIT);
	}

	/** The value into Redis; the bytes written. */
	@Benchmark
	public long upload() {
		if (this.candidate.equals("lettuce-single-command")) {
			this.commands.set(KEY.getBytes(), this.value);
			return this.value.length;
		}
		this.reactive.upload(KEY, requestBody(this.value)).block(WAIT);
		return this.value.length;
	}

	/** The value as a request body arrives: heap buffers of a chunk each, wrapping the bytes. */
	static Flux<DataBuffer> requestBody(byte[] value) {
		return Flux.range(0, (value.length + CHUNK - 1) / CHUNK).map((i) -> {
			int from = i * CHUNK;
			return DefaultDataBufferFactory.sharedInstance
				.wrap(ByteBuffer.wrap(value, from, Math.min(CHUNK, value.length - from)).slice());
		});
	}

	static byte[] value() {
		byte[] bytes = new byte[MEGABYTES * 1024 * 1024];
		new Random(42).nextBytes(bytes);
		return bytes;
	}

}
