package dev.slipcase.redis.template;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.codec.FormatDecoding;
import dev.slipcase.redis.serializer.ValueFormat;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * An array reply of bulk strings ({@code MGET}, {@code HMGET}) decoded with a {@link ValueFormat}
 * straight from Lettuce's receive buffer, in reply order, {@code null} for missing entries.
 */
final class DecodedListOutput<V> extends CommandOutput<String, EncodedValue, List<@Nullable V>> {

	private final ValueFormat<V> format;

	private final List<String> names;

	DecodedListOutput(ValueFormat<V> format, List<String> names) {
		super(EncodedValueCodec.INSTANCE, new ArrayList<>(names.size()));
		this.format = format;
		this.names = names;
	}

	/**
	 * Starts the reply's array. A command that Lettuce writes again after a reconnect may have
	 * received part of a reply on the lost connection: that part is dropped here.
	 */
	@Override
	public void multi(int count) {
		this.output.clear();
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		int index = this.output.size();
		String name = (index < this.names.size()) ? this.names.get(index) : "#" + index;
		this.output.add((bytes != null) ? FormatDecoding.decode(this.format, bytes, name) : null);
	}

}
