package dev.slipcase.redis.serializer.compression;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import dev.slipcase.redis.benchmark.Payload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.jspecify.annotations.Nullable;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Compression and decompression of each payload, serialized as plain Jackson JSON, by each
 * Slipcase compressor over pooled heap or direct buffers, side by side with the baseline a user
 * would otherwise write: {@code GZIPOutputStream}/{@code GZIPInputStream} over {@code byte[]}
 * ({@code jdk-gzip-stream}, which ignores {@code buffers}). {@code zstd-dictionary} uses a
 * dictionary trained on session tokens, so it is meant for {@code SMALL}. Run with
 * {@code -prof gc} for bytes allocated per operation:
 * <pre>java -jar benchmarks/target/benchmarks.jar CompressionBenchmark -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CompressionBenchmark {

	private static final String JDK_GZIP_STREAM = "jdk-gzip-stream";

	private static final int MAX_DECOMPRESSED_SIZE = 64 * 1024 * 1024;

	@Param({ "SMALL", "ORDER", "DOCUMENT", "LIST_50K" })
	public Payload payload;

	@Param({ "lz4", "zstd", "zstd-dictionary", "gzip", JDK_GZIP_STREAM })
	public String algorithm;

	@Param({ "direct", "heap" })
	public String buffers;

	private @Nullable Compressor compressor;

	private byte[] json;

	private byte[] jdkCompressed;

	private ByteBuf input;

	private ByteBuf compressTarget;

	private ByteBuf compressed;

	private ByteBuf decompressTarget;

	@Setup
	public void setUp() {
		this.json = CompressionCandidates.json(this.payload.value());
		this.jdkCompressed = jdkGzip(this.json);
		this.compressor = JDK_GZIP_STREAM.equals(this.algorithm) ? null : CompressionCandidates.create(this.algorithm);
		ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
		boolean direct = "direct".equals(this.buffers);
		this.input = allocate(allocator, direct, this.json.length).writeBytes(this.json);
		this.compressTarget = allocate(allocator, direct, this.json.length + 64);
		this.compressed = allocate(allocator, direct, this.json.length + 64);
		this.decompressTarget = allocate(allocator, direct, this.json.length);
		if (this.compressor != null) {
			this.compressor.compress(this.input.duplicate(), this.compressed);
		}
	}

	@TearDown
	public void tearDown() {
		this.input.release();
		this.compressTarget.release();
		this.compressed.release();
		this.decompressTarget.release();
	}

	@Benchmark
	public int compress() {
		if (this.compressor == null) {
			return jdkGzip(this.json).length;
		}
		this.input.readerIndex(0);
		this.compressTarget.clear();
		this.compressor.compress(this.input, this.compressTarget);
		return this.compressTarget.writerIndex();
	}

	@Benchmark
	public int decompress() {
		if (this.compressor == null) {
			return jdkGunzip(this.jdkCompressed).length;
		}
		this.compressed.readerIndex(0);
		this.decompressTarget.clear();
		this.compressor.decompress(this.compressed, this.decompressTarget, MAX_DECOMPRESSED_SIZE);
		return this.decompressTarget.writerIndex();
	}

	private static ByteBuf allocate(ByteBufAllocator allocator, boolean direct, int capacity) {
		return direct ? allocator.directBuffer(capacity) : allocator.heapBuffer(capacity);
	}

	private static byte[] jdkGzip(byte[] bytes) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (GZIPOutputStream stream = new GZIPOutputStream(out)) {
			stream.write(bytes);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	private static byte[] jdkGunzip(byte[] bytes) {
		try (GZIPInputStream stream = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
			return stream.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
