package dev.slipcase.redis.metrics;


/**
 * Receives what Slipcase's serializers, codecs, compression, leases and sharded templates do, for
 * metrics. Register one with {@link SlipcaseObservers#register(SlipcaseObserver)}.
 * <p>
 * Every method has an empty default, so an implementation overrides only what it records. Methods
 * are called on the thread doing the work, including Lettuce's event loops (values decoded straight
 * from the receive buffer): implementations must be thread-safe, fast and never block or throw.
 * Arguments are never {@code null}; format and compressor names are the constants the formats and
 * compressors report ({@code json}, {@code json+lz4}, {@code protostuff}, {@code zstd}...), a small
 * set fit for metric tags.
 */
public interface SlipcaseObserver {

	/** An observer that ignores everything, in effect when none is registered. */
	SlipcaseObserver NOOP = new SlipcaseObserver() {

		@Override
		public String toString() {
			return "SlipcaseObserver.NOOP";
		}

	};

	/**
	 * A value was serialized.
	 * @param format the format's name, as {@code ValueFormat.name()} reports it
	 * @param bytes the size of the serialized value
	 */
	default void valueWritten(String format, int bytes) {
	}

	/**
	 * A value was deserialized.
	 * @param format the format's name, as {@code ValueFormat.name()} reports it
	 * @param bytes the size of the serialized value read
	 */
	default void valueRead(String format, int bytes) {
	}

	/**
	 * A value could not be serialized ({@link Operation#WRITE}) or deserialized
	 * ({@link Operation#READ}); the caller receives a {@code SerializationException}.
	 * @param format the format's name
	 * @param operation what failed
	 */
	default void serializationFailed(String format, Operation operation) {
	}

	/**
	 * A value's body was compressed on write (whether or not the compressed form was kept, which
	 * happens only when it is smaller).
	 * @param compressor the compressor's name ({@code lz4}, {@code zstd}, {@code gzip}...)
	 * @param bytesIn the size of the body before compression
	 * @param bytesOut the size of the compressed body
	 */
	default void compressed(String compressor, int bytesIn, int bytesOut) {
	}

	/** A {@code ValueLease} was opened; {@link #leaseClosed()} follows once for it. */
	default void leaseOpened() {
	}

	/** A {@code ValueLease} this observer saw opened was closed. */
	default void leaseClosed() {
	}

	/**
	 * A sharded template wrote values to overflow keys because they (or their ids) were too long
	 * for a compact bucket.
	 * @param namespace the namespace's name
	 * @param count how many values of the write went to overflow keys (at least 1)
	 */
	default void overflowWritten(String namespace, int count) {
	}

	/**
	 * A sharded template sampled its buckets' memory ({@code ShardedTemplate.memoryReport}).
	 * @param namespace the namespace's name
	 * @param sampledBuckets how many buckets the report looked at
	 * @param flippedBuckets how many of them had left the compact encoding
	 */
	default void memoryReported(String namespace, int sampledBuckets, int flippedBuckets) {
	}

	/**
	 * A cache read an entry it could not use (unreadable bytes, or a value of another type than
	 * the cache's methods return) and treated it as a miss.
	 * @param cache the cache's name
	 */
	default void cacheEntryUnreadable(String cache) {
	}

	/**
	 * A JDK-serialized value, written before the switch to Slipcase or by an instance without it,
	 * was read through the allowlist while the feature switches over.
	 * @param feature what read it: {@code cache}, {@code session} or {@code redis-template}
	 * @param name the cache's name, or the feature's name again where it has none
	 */
	default void jdkValueRead(String feature, String name) {
	}

	/** What a serialization error happened in. */
	enum Operation {

		/** Deserializing: turning stored bytes into a value. */
		READ,

		/** Serializing: turning a value into bytes. */
		WRITE;

		/** The lower-case name, for a metric tag. */
		public String tagValue() {
			return (this == READ) ? "read" : "write";
		}

	}

}
