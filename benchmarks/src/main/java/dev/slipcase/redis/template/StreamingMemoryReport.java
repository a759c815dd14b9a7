package dev.slipcase.redis.template;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import dev.slipcase.redis.serializer.BytesFormat;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.netty.util.internal.PlatformDependent;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * What moving a {@value StreamingBenchmark#MEGABYTES} MB value costs the JVM in memory, measured
 * rather than assumed: the heap still reachable (after a full collection) and the direct memory
 * held, above what the same process holds idle with the same clients connected and the value's
 * bytes already in hand. A stream is paused every {@value #SAMPLE_EVERY} chunks (it is demand
 * driven: no chunk moves until asked for), collected twice and sampled; the largest sample is
 * the stream's cost. A single {@code GET} is sampled once it returned, holding its value, as its
 * caller does. For the benchmark report; the times are {@link StreamingBenchmark}'s.
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.template.StreamingMemoryReport</pre>
 */
public final class StreamingMemoryReport {

	/** Chunks between two samples of a stream. */
	static final int SAMPLE_EVERY = 40;

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static final byte[] KEY = "bench:file".getBytes(StandardCharsets.UTF_8);

	private StreamingMemoryReport() {
	}

	/**
	 * One way of moving the value and what it held above idle, in bytes.
	 *
	 * @param transfer what was moved and how
	 * @param heap the largest reachable heap above idle
	 * @param direct the largest direct memory above idle
	 * @param samples how many samples were taken
	 */
	public record Row(String transfer, long heap, long direct, int samples) {
	}

	public static void main(String[] args) {
		System.out.println(markdown(measure()));
	}

	/** Measures each way against a private local Redis. */
	public static List<Row> measure() {
		byte[] value = StreamingBenchmark.value();
		try (RedisFixture redis = RedisFixture.start();
				ValueTemplate<byte[]> template = ValueTemplate
					.create(redis.client(), redis.uri(), BytesFormat.INSTANCE);
				StatefulRedisConnection<byte[], byte[]> lettuce = redis.client().connect(ByteArrayCodec.INSTANCE, redis.uri())) {
			lettuce.setTimeout(WAIT);
			RedisCommands<byte[], byte[]> commands = lettuce.sync();
			ReactiveValueTemplate<byte[]> reactive = template.reactive();
			String key = new String(KEY, StandardCharsets.UTF_8);
			// once each way first: connections open, pools and classes warm
			commands.set(KEY, value);
			download(reactive, key, null);
			reactive.upload(key, StreamingBenchmark.requestBody(value)).block(WAIT);
			List<Row> rows = new ArrayList<>();

			Peak download = new Peak();
			download(reactive, key, download);
			rows.add(download.row("download, `ReactiveValueTemplate.download` (256 KB chunks, the default)"));

			Peak upload = new Peak();
			AtomicLong chunks = new AtomicLong();
			reactive.upload(key, StreamingBenchmark.requestBody(value).doOnNext((chunk) -> {
				if (chunks.incrementAndGet() % SAMPLE_EVERY == 0) {
					upload.sample();
				}
			})).block(WAIT);
			rows.add(upload.row("upload, `ReactiveValueTemplate.upload` (64 KB heap buffers in)"));

			Peak get = new Peak();
			byte[] read = commands.get(KEY);
			get.sample();
			rows.add(get.row("download, one `GET` into a `byte[]` (raw Lettuce), " + read.length / 1024 / 1024 + " MB held"));
			return rows;
		}
	}

	/**
	 * Downloads the value, sampling {@code peak} every few chunks when given: on the thread that
	 * emits the chunk, so the stream waits for the sample (the download reads no further ahead
	 * than its chunks in flight).
	 */
	private static void download(ReactiveValueTemplate<byte[]> reactive, String key, @Nullable Peak peak) {
		AtomicLong received = new AtomicLong();
		reactive.download(key).doOnNext((chunk) -> {
			DataBufferUtils.release(chunk);
			if (peak != null && received.incrementAndGet() % SAMPLE_EVERY == 0) {
				peak.sample();
			}
		}).then().block(WAIT);
	}

	/** The markdown table of the rows. */
	public static String markdown(List<Row> rows) {
		StringBuilder out = new StringBuilder();
		out.append("Moving a ").append(StreamingBenchmark.MEGABYTES)
			.append(" MB value; memory held above the same process idle (clients connected, the value's bytes in hand), ")
			.append("the largest of samples taken every ").append(SAMPLE_EVERY)
			.append(" chunks after a full collection (`StreamingMemoryReport`); times per value are `StreamingBenchmark`'s.\n\n");
		out.append("| transfer | heap above idle | direct memory above idle | samples |\n");
		out.append("| --- | ---: | ---: | ---: |\n");
		for (Row row : rows) {
			out.append("| ").append(row.transfer()).append(" | ").append(megabytes(row.heap())).append(" | ")
				.append(megabytes(row.direct())).append(" | ").append(row.samples()).append(" |\n");
		}
		return out.toString();
	}

	private static String megabytes(long bytes) {
		return String.format(Locale.ROOT, "%.2f MB", bytes / (1024.0 * 1024.0));
	}

	/** The largest memory above idle of the samples taken; idle is measured when it is made. */
	private static final class Peak {

		private final long idleHeap;

		private final long idleDirect;

		private long heap;

		private long direct;

		private int samples;

		Peak() {
			collect();
			this.idleHeap = heapUsed();
			this.idleDirect = directUsed();
		}

		synchronized void sample() {
			collect();
			this.heap = Math.max(this.heap, heapUsed() - this.idleHeap);
			this.direct = Math.max(this.direct, directUsed() - this.idleDirect);
			this.samples++;
		}

		synchronized Row row(String transfer) {
			return new Row(transfer, this.heap, this.direct, this.samples);
		}

		private static void collect() {
			System.gc();
			System.gc();
		}

		private static long heapUsed() {
			return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		}

		/** Direct memory of NIO buffers, and Netty's own where it allocates without a cleaner. */
		private static long directUsed() {
			long used = 0;
			for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
				if (pool.getName().equals("direct")) {
					used += pool.getMemoryUsed();
				}
			}
			long netty = PlatformDependent.usedDirectMemory();
			return used + Math.max(0, netty);
		}

	}

}
