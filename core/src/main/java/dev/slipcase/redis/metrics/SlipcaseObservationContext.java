package dev.slipcase.redis.metrics;

import java.util.Locale;

import io.micrometer.observation.Observation;

import org.springframework.util.Assert;

/**
 * What one observed Slipcase call did: the operation, the namespace and format it used, how it
 * ended and how many bytes it stored or read. Filled in by the call on the thread that runs it (the
 * byte counts possibly by a Lettuce event loop before the call completes) and read by the
 * {@link DefaultSlipcaseObservationConvention} when the observation stops.
 */
public final class SlipcaseObservationContext extends Observation.Context {

	/** A namespace for calls that have none, such as those of a {@code ValueTemplate}. */
	public static final String NO_NAMESPACE = "none";

	private final SlipcaseObservationDocumentation kind;

	private final String operation;

	private final String namespace;

	private final String format;

	private volatile Outcome outcome = Outcome.SUCCESS;

	private volatile long storedBytes = -1;

	private volatile long rawBytes = -1;

	/**
	 * @param kind which of Slipcase's observations this is
	 * @param operation what is done, such as {@code GET} or {@code multiGet}
	 * @param namespace the sharded namespace, or {@link #NO_NAMESPACE}
	 * @param format the format's or compressor's name
	 */
	public SlipcaseObservationContext(SlipcaseObservationDocumentation kind, String operation, String namespace,
			String format) {
		Assert.notNull(kind, "kind must not be null");
		Assert.notNull(operation, "operation must not be null");
		Assert.notNull(namespace, "namespace must not be null");
		Assert.notNull(format, "format must not be null");
		this.kind = kind;
		this.operation = operation;
		this.namespace = namespace;
		this.format = format;
	}

	public SlipcaseObservationDocumentation kind() {
		return this.kind;
	}

	public String operation() {
		return this.operation;
	}

	public String namespace() {
		return this.namespace;
	}

	public String format() {
		return this.format;
	}

	public Outcome outcome() {
		return this.outcome;
	}

	/** The bytes stored in Redis by the call, or read from it; {@code -1} when unknown. */
	public long storedBytes() {
		return this.storedBytes;
	}

	/** The bytes before compression; {@code -1} when unknown or not compressed. */
	public long rawBytes() {
		return this.rawBytes;
	}

	/** Adds {@code bytes} to the bytes stored or read. */
	public void addStoredBytes(long bytes) {
		this.storedBytes = Math.max(this.storedBytes, 0) + bytes;
	}

	/** Adds {@code bytes} to the bytes before compression. */
	public void addRawBytes(long bytes) {
		this.rawBytes = Math.max(this.rawBytes, 0) + bytes;
	}

	void outcome(Outcome outcome) {
		this.outcome = outcome;
	}

	/** How an observed call ended, a low-cardinality tag. */
	public enum Outcome {

		/** It completed. */
		SUCCESS,

		/** It failed; the observation carries the error. */
		ERROR,

		/** It was cancelled, or its caller stopped waiting. */
		CANCELLED;

		/** The lower-case name, for a tag. */
		public String tagValue() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
