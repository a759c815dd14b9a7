package dev.slipcase.redis.template;

import java.nio.ByteBuffer;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.codec.FormatDecoding;
import dev.slipcase.redis.serializer.ValueFormat;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * One bulk reply decoded with a {@link ValueFormat} straight from Lettuce's receive buffer;
 * {@code null} for a missing key. A decode failure is thrown to Lettuce, which completes only this
 * command exceptionally.
 */
final class DecodedValueOutput<V> extends CommandOutput<String, EncodedValue, @Nullable V> {

	private final ValueFormat<V> format;

	private final String key;

	DecodedValueOutput(ValueFormat<V> format, String key) {
		super(EncodedValueCodec.INSTANCE, null);
		this.format = format;
		this.key = key;
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		this.output = (bytes != null) ? FormatDecoding.decode(this.format, bytes, this.key) : null;
	}

}
