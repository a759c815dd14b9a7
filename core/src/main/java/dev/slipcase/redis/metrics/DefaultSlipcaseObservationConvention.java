package dev.slipcase.redis.metrics;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

import dev.slipcase.redis.metrics.SlipcaseObservationDocumentation.HighCardinalityKeys;
import dev.slipcase.redis.metrics.SlipcaseObservationDocumentation.LowCardinalityKeys;

/**
 * The names and tags of Slipcase's observations: the documented name of each kind,
 * {@code slipcase.operation}, {@code slipcase.namespace}, {@code slipcase.format} and
 * {@code slipcase.outcome} as low-cardinality tags, and the byte counts as high-cardinality ones
 * (they differ per call, so they belong on spans, not on meters).
 */
public final class DefaultSlipcaseObservationConvention implements ObservationConvention<SlipcaseObservationContext> {

	private final String name;

	/** @param name the observation's name, such as {@code slipcase.redis.command} */
	DefaultSlipcaseObservationConvention(String name) {
		this.name = name;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof SlipcaseObservationContext;
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getContextualName(SlipcaseObservationContext context) {
		return "slipcase " + context.operation();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(SlipcaseObservationContext context) {
		return KeyValues.of(LowCardinalityKeys.OPERATION.withValue(context.operation()),
				LowCardinalityKeys.NAMESPACE.withValue(context.namespace()),
				LowCardinalityKeys.FORMAT.withValue(context.format()),
				LowCardinalityKeys.OUTCOME.withValue(context.outcome().tagValue()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(SlipcaseObservationContext context) {
		KeyValues values = KeyValues.empty();
		if (context.storedBytes() >= 0) {
			values = values.and(HighCardinalityKeys.STORED_BYTES.withValue(Long.toString(context.storedBytes())));
		}
		if (context.rawBytes() >= 0) {
			values = values.and(HighCardinalityKeys.RAW_BYTES.withValue(Long.toString(context.rawBytes())));
		}
		return values;
	}

}
