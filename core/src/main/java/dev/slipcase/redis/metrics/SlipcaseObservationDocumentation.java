package dev.slipcase.redis.metrics;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * Slipcase's observations, for Micrometer's Observation API (traces and timers): one per template
 * command, per sharded call, per compression. Each is started on the caller's thread and kept
 * current while the call dispatches its Redis commands, so that Lettuce's own command observations
 * (Boot's Lettuce tracing) nest under it, and it nests under whatever observation the caller is in
 * (an HTTP request, a scheduled task).
 */
public enum SlipcaseObservationDocumentation implements ObservationDocumentation {

	/** One {@code ValueTemplate} command, sync or async, from dispatch to reply. */
	COMMAND("slipcase.redis.command"),

	/** One {@code ShardedTemplate} call: get, set, multiGet, multiSet, increment, delete... */
	SHARDED("slipcase.redis.sharded"),

	/** Compressing one value's body on write (format and compressor tagged). */
	COMPRESSION("slipcase.redis.compression");

	private final String observationName;

	private final DefaultSlipcaseObservationConvention convention;

	SlipcaseObservationDocumentation(String observationName) {
		this.observationName = observationName;
		this.convention = new DefaultSlipcaseObservationConvention(observationName);
	}

	@Override
	public String getName() {
		return this.observationName;
	}

	@Override
	public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
		return DefaultSlipcaseObservationConvention.class;
	}

	@Override
	public KeyName[] getLowCardinalityKeyNames() {
		return LowCardinalityKeys.values();
	}

	@Override
	public KeyName[] getHighCardinalityKeyNames() {
		return HighCardinalityKeys.values();
	}

	/**
	 * Starts this kind of observation of a call in {@code registry}: {@link ObservedCall#NONE}, at
	 * no cost, when the registry is a no-op one.
	 */
	public ObservedCall start(ObservationRegistry registry, String operation, String namespace, String format) {
		if (registry.isNoop()) {
			return ObservedCall.NONE;
		}
		SlipcaseObservationContext context = new SlipcaseObservationContext(this, operation, namespace, format);
		Observation observation = observation(null, this.convention, () -> context, registry).start();
		return new ObservedCall(observation, context);
	}

	/** The tags every Slipcase observation has. */
	public enum LowCardinalityKeys implements KeyName {

		/** What was done: a Redis command ({@code GET}) or a sharded call ({@code multiGet}). */
		OPERATION {
			@Override
			public String asString() {
				return "slipcase.operation";
			}
		},

		/** The sharded namespace, or {@code none}. */
		NAMESPACE {
			@Override
			public String asString() {
				return "slipcase.namespace";
			}
		},

		/** The value format's name ({@code json}, {@code protostuff+zstd}...) or the compressor's. */
		FORMAT {
			@Override
			public String asString() {
				return "slipcase.format";
			}
		},

		/** {@code success}, {@code error} or {@code cancelled}. */
		OUTCOME {
			@Override
			public String asString() {
				return "slipcase.outcome";
			}
		}

	}

	/** The byte counts, different for every call: on spans only. */
	public enum HighCardinalityKeys implements KeyName {

		/** The bytes stored in Redis, or read from it. */
		STORED_BYTES {
			@Override
			public String asString() {
				return "slipcase.bytes.stored";
			}
		},

		/** The bytes of the value before compression. */
		RAW_BYTES {
			@Override
			public String asString() {
				return "slipcase.bytes.raw";
			}
		}

	}

}
