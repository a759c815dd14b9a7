package dev.slipcase.redis.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;


/** Counts every event it receives, keyed by its arguments, for assertions. */
final class CountingObserver implements SlipcaseObserver {

	final Map<String, AtomicLong> writtenBytes = new ConcurrentHashMap<>();

	final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();

	final Map<String, AtomicLong> readBytes = new ConcurrentHashMap<>();

	final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

	final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

	final List<int[]> compressions = new CopyOnWriteArrayList<>();

	final Map<String, AtomicInteger> compressors = new ConcurrentHashMap<>();

	final AtomicInteger openLeases = new AtomicInteger();

	final AtomicInteger leasesOpened = new AtomicInteger();

	final Map<String, AtomicInteger> overflowWrites = new ConcurrentHashMap<>();

	/** Each memory report seen: namespace, sampled buckets, flipped buckets. */
	final List<List<Object>> reports = new CopyOnWriteArrayList<>();

	@Override
	public void valueWritten(String format, int bytes) {
		this.writes.computeIfAbsent(format, (f) -> new AtomicInteger()).incrementAndGet();
		this.writtenBytes.computeIfAbsent(format, (f) -> new AtomicLong()).addAndGet(bytes);
	}

	@Override
	public void valueRead(String format, int bytes) {
		this.reads.computeIfAbsent(format, (f) -> new AtomicInteger()).incrementAndGet();
		this.readBytes.computeIfAbsent(format, (f) -> new AtomicLong()).addAndGet(bytes);
	}

	@Override
	public void serializationFailed(String format, Operation operation) {
		this.failures.computeIfAbsent(format + "/" + operation.tagValue(), (f) -> new AtomicInteger()).incrementAndGet();
	}

	@Override
	public void compressed(String compressor, int bytesIn, int bytesOut) {
		this.compressors.computeIfAbsent(compressor, (c) -> new AtomicInteger()).incrementAndGet();
		this.compressions.add(new int[] { bytesIn, bytesOut });
	}

	@Override
	public void leaseOpened() {
		this.openLeases.incrementAndGet();
		this.leasesOpened.incrementAndGet();
	}

	@Override
	public void leaseClosed() {
		this.openLeases.decrementAndGet();
	}

	@Override
	public void overflowWritten(String namespace, int count) {
		this.overflowWrites.computeIfAbsent(namespace, (n) -> new AtomicInteger()).addAndGet(count);
	}

	@Override
	public void memoryReported(String namespace, int sampledBuckets, int flippedBuckets) {
		this.reports.add(List.of(namespace, sampledBuckets, flippedBuckets));
	}

	int count(Map<String, ? extends Number> counts, String key) {
		Number count = counts.get(key);
		return (count != null) ? count.intValue() : 0;
	}

	long sum(Map<String, ? extends Number> counts, String key) {
		Number count = counts.get(key);
		return (count != null) ? count.longValue() : 0;
	}

}
