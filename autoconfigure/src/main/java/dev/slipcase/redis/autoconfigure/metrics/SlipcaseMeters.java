package dev.slipcase.redis.autoconfigure.metrics;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A {@link SlipcaseObserver} that records what Slipcase does as Micrometer meters, registered with
 * {@link SlipcaseObservers} from {@link #bind} until {@link #close()}:
 * <ul>
 * <li>{@value #SERIALIZER_BYTES} (distribution summary, bytes; tags {@code format},
 * {@code direction} = {@code write}|{@code read}): the size of each value serialized or
 * deserialized;</li>
 * <li>{@value #SERIALIZER_ERRORS} (counter; tags {@code format}, {@code operation} =
 * {@code write}|{@code read}): values that could not be serialized or deserialized;</li>
 * <li>{@value #COMPRESSION_RATIO} (distribution summary; tag {@code compressor}): body size before
 * divided by size after, for each compressed write;</li>
 * <li>{@value #COMPRESSION_BYTES} (counter, bytes; tags {@code compressor}, {@code stage} =
 * {@code before}|{@code after}): the bytes that went into and came out of the compressor;</li>
 * <li>{@value #BUFFER_MEMORY} (gauge, bytes; tags {@code allocator}, {@code kind} =
 * {@code heap}|{@code direct}): memory the allocator holds, from Netty's allocator metric;</li>
 * <li>{@value #LEASES_ACTIVE} (gauge): value leases opened and not yet closed;</li>
 * <li>{@value #OVERFLOW_WRITES} (counter; tag {@code namespace}): values a sharded template wrote
 * to overflow keys because they were too long for a compact bucket;</li>
 * <li>{@value #FLIPPED_BUCKETS} (gauge; tag {@code namespace}): buckets that left the compact
 * encoding in the namespace's latest memory report;</li>
 * <li>{@value #JDK_READS} (counter; tags {@code feature} = {@code cache}|{@code session}|{@code redis-template},
 * {@code name}, the cache's name): JDK-serialized values read while the feature switches over;
 * when it stays still, none is left to read.</li>
 * </ul>
 * Meters are created on first use of each tag combination and cached, so recording allocates
 * nothing once warm. Thread-safe.
 */
public final class SlipcaseMeters implements SlipcaseObserver, AutoCloseable {

	/** Size of each serialized value. */
	public static final String SERIALIZER_BYTES = "slipcase.redis.serializer.bytes";

	/** Serialization failures. */
	public static final String SERIALIZER_ERRORS = "slipcase.redis.serializer.errors";

	/** Compression ratio of each compressed write. */
	public static final String COMPRESSION_RATIO = "slipcase.redis.compression.ratio";

	/** Bytes into and out of compressors. */
	public static final String COMPRESSION_BYTES = "slipcase.redis.compression.bytes";

	/** Memory held by the buffer allocators. */
	public static final String BUFFER_MEMORY = "slipcase.redis.buffer.memory";

	/** Open value leases. */
	public static final String LEASES_ACTIVE = "slipcase.redis.leases.active";

	/** Sharded values written to overflow keys. */
	public static final String OVERFLOW_WRITES = "slipcase.redis.sharded.overflow.writes";

	/** Cache entries treated as misses because they could not be used. */
	public static final String CACHE_UNREADABLE = "slipcase.redis.cache.unreadable";

	/** JDK-serialized values read while a feature switches over. */
	public static final String JDK_READS = "slipcase.redis.jdk.reads";

	/** Flipped buckets in the latest memory report. */
	public static final String FLIPPED_BUCKETS = "slipcase.redis.sharded.flipped.buckets";

	private final MeterRegistry registry;

	private final Map<String, DistributionSummary> written = new ConcurrentHashMap<>();

	private final Map<String, DistributionSummary> read = new ConcurrentHashMap<>();

	private final Map<String, Counter> writeErrors = new ConcurrentHashMap<>();

	private final Map<String, Counter> readErrors = new ConcurrentHashMap<>();

	private final Map<String, Compression> compression = new ConcurrentHashMap<>();

	private final Map<String, Counter> overflowWrites = new ConcurrentHashMap<>();

	private final Map<String, Counter> unreadableEntries = new ConcurrentHashMap<>();

	private final Map<String, Counter> jdkReads = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> flippedBuckets = new ConcurrentHashMap<>();

	private final AtomicLong leases = new AtomicLong();

	private volatile SlipcaseObservers.@Nullable Registration registration;

	private SlipcaseMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Registers the gauges with {@code registry} and starts observing Slipcase.
	 * @param registry where meters go, never {@code null}
	 * @param allocators the allocators whose memory to report, by name (the same allocator under
	 * several names is reported once, under the first); allocators that publish no metric are skipped
	 * @return the observer, to {@link #close()} on shutdown
	 */
	public static SlipcaseMeters bind(MeterRegistry registry, Map<String, ByteBufAllocator> allocators) {
		Assert.notNull(registry, "registry must not be null");
		Assert.notNull(allocators, "allocators must not be null");
		SlipcaseMeters meters = new SlipcaseMeters(registry);
		meters.bindGauges(allocators);
		meters.registration = SlipcaseObservers.register(meters);
		return meters;
	}

	private void bindGauges(Map<String, ByteBufAllocator> allocators) {
		Gauge.builder(LEASES_ACTIVE, this.leases, AtomicLong::get)
			.description("Value leases opened and not yet closed")
			.strongReference(true)
			.register(this.registry);
		Map<ByteBufAllocator, Boolean> seen = new IdentityHashMap<>();
		allocators.forEach((name, allocator) -> {
			if (seen.put(allocator, Boolean.TRUE) == null
					&& allocator instanceof ByteBufAllocatorMetricProvider provider) {
				ByteBufAllocatorMetric metric = provider.metric();
				Gauge.builder(BUFFER_MEMORY, metric, ByteBufAllocatorMetric::usedHeapMemory)
					.tags("allocator", name, "kind", "heap")
					.baseUnit("bytes")
					.description("Heap memory the buffer allocator holds")
					.strongReference(true)
					.register(this.registry);
				Gauge.builder(BUFFER_MEMORY, metric, ByteBufAllocatorMetric::usedDirectMemory)
					.tags("allocator", name, "kind", "direct")
					.baseUnit("bytes")
					.description("Direct (off-heap) memory the buffer allocator holds")
					.strongReference(true)
					.register(this.registry);
			}
		});
	}

	@Override
	public void valueWritten(String format, int bytes) {
		summary(this.written, format, "write").record(bytes);
	}

	@Override
	public void valueRead(String format, int bytes) {
		summary(this.read, format, "read").record(bytes);
	}

	private DistributionSummary summary(Map<String, DistributionSummary> cache, String format, String direction) {
		DistributionSummary summary = cache.get(format);
		if (summary == null) {
			summary = cache.computeIfAbsent(format, (name) -> DistributionSummary.builder(SERIALIZER_BYTES)
				.tags("format", name, "direction", direction)
				.baseUnit("bytes")
				.description("Size of each value Slipcase serialized or deserialized")
				.register(this.registry));
		}
		return summary;
	}

	@Override
	public void serializationFailed(String format, Operation operation) {
		Map<String, Counter> cache = (operation == Operation.READ) ? this.readErrors : this.writeErrors;
		Counter counter = cache.get(format);
		if (counter == null) {
			counter = cache.computeIfAbsent(format, (name) -> Counter.builder(SERIALIZER_ERRORS)
				.tags("format", name, "operation", operation.tagValue())
				.description("Values Slipcase could not serialize or deserialize")
				.register(this.registry));
		}
		counter.increment();
	}

	@Override
	public void compressed(String compressor, int bytesIn, int bytesOut) {
		Compression meters = this.compression.get(compressor);
		if (meters == null) {
			meters = this.compression.computeIfAbsent(compressor, (name) -> new Compression(this.registry, name));
		}
		meters.before.increment(bytesIn);
		meters.after.increment(bytesOut);
		if (bytesOut > 0) {
			meters.ratio.record((double) bytesIn / bytesOut);
		}
	}

	@Override
	public void leaseOpened() {
		this.leases.incrementAndGet();
	}

	@Override
	public void leaseClosed() {
		this.leases.decrementAndGet();
	}

	@Override
	public void overflowWritten(String namespace, int count) {
		Counter counter = this.overflowWrites.get(namespace);
		if (counter == null) {
			counter = this.overflowWrites.computeIfAbsent(namespace, (name) -> Counter.builder(OVERFLOW_WRITES)
				.tag("namespace", name)
				.description("Sharded values written to overflow keys because they were too long for a compact bucket")
				.register(this.registry));
		}
		counter.increment(count);
	}

	@Override
	public void cacheEntryUnreadable(String cache) {
		Counter counter = this.unreadableEntries.get(cache);
		if (counter == null) {
			counter = this.unreadableEntries.computeIfAbsent(cache, (name) -> Counter.builder(CACHE_UNREADABLE)
				.tag("cache", name)
				.description("Cache entries that could not be used (unreadable, or of another type) and were treated as misses")
				.register(this.registry));
		}
		counter.increment();
	}

	@Override
	public void jdkValueRead(String feature, String name) {
		String id = feature + '/' + name;
		Counter counter = this.jdkReads.get(id);
		if (counter == null) {
			counter = this.jdkReads.computeIfAbsent(id, (key) -> Counter.builder(JDK_READS)
				.tag("feature", feature)
				.tag("name", name)
				.description("JDK-serialized values read while a feature switches over from JDK serialization")
				.register(this.registry));
		}
		counter.increment();
	}

	@Override
	public void memoryReported(String namespace, int sampledBuckets, int flippedBuckets) {
		this.flippedBuckets.computeIfAbsent(namespace, (name) -> {
			AtomicInteger flipped = new AtomicInteger();
			Gauge.builder(FLIPPED_BUCKETS, flipped, AtomicInteger::get)
				.tag("namespace", name)
				.description("Buckets that left the compact encoding, in the namespace's latest memory report")
				.strongReference(true)
				.register(this.registry);
			return flipped;
		}).set(flippedBuckets);
	}

	/** Stops observing Slipcase; the meters stay in the registry with their last values. */
	@Override
	public void close() {
		SlipcaseObservers.Registration registration = this.registration;
		if (registration != null) {
			registration.close();
		}
	}

	@Override
	public String toString() {
		return "SlipcaseMeters[" + this.registry.getClass().getSimpleName() + "]";
	}

	/** The meters of one compressor. */
	private static final class Compression {

		final DistributionSummary ratio;

		final Counter before;

		final Counter after;

		Compression(MeterRegistry registry, String compressor) {
			this.ratio = DistributionSummary.builder(COMPRESSION_RATIO)
				.tag("compressor", compressor)
				.description("Size before compression divided by size after, per compressed write")
				.register(registry);
			this.before = Counter.builder(COMPRESSION_BYTES)
				.tags("compressor", compressor, "stage", "before")
				.baseUnit("bytes")
				.description("Bytes into and out of the compressor")
				.register(registry);
			this.after = Counter.builder(COMPRESSION_BYTES)
				.tags("compressor", compressor, "stage", "after")
				.baseUnit("bytes")
				.description("Bytes into and out of the compressor")
				.register(registry);
		}

	}

}
