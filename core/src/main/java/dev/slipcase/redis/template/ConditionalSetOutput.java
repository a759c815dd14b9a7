package dev.slipcase.redis.template;

import java.nio.ByteBuffer;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/** The reply of {@code SET}: {@code true} for {@code OK}, {@code false} for a nil (NX/XX not met). */
final class ConditionalSetOutput extends CommandOutput<String, EncodedValue, Boolean> {

	ConditionalSetOutput() {
		super(EncodedValueCodec.INSTANCE, Boolean.FALSE);
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		this.output = (bytes != null);
	}

}
