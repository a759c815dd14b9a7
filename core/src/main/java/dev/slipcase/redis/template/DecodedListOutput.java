package dev.slipcase.redis.template;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.codec.CountsBytesRead;
import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * An array reply of bulk strings ({@code MGET}, {@code HMGET}) decoded with a {@link ValueFormat}
 * straight from Lettuce's receive buffer, in reply order, {@code null} for missing entries. A
 * decode failure names the key (and the field of a hash).
 */
final class DecodedListOutput<V> extends CommandOutput<String, EncodedValue, List<@Nullable V>>
		implements CountsBytesRead {

	private final ValueFormat<V> format;

	private final @Nullable String hash;

	private final List<String> names;

	private long bytesRead;

	/**
	 * @param hash the key of the hash whose fields are read ({@code HMGET}), or {@code null} when
	 * {@code names} are keys ({@code MGET})
	 * @param names the keys or fields read, in the order of the reply
	 */
	DecodedListOutput(ValueFormat<V> format, @Nullable String hash, List<String> names) {
		super(EncodedValueCodec.INSTANCE, new ArrayList<>(names.size()));
		this.format = format;
		this.hash = hash;
		this.names = names;
	}

	/**
	 * Starts the reply's array. A command that Lettuce writes again after a reconnect may have
	 * received part of a reply on the lost connection: that part is dropped here.
	 */
	@Override
	public void multi(int count) {
		this.output.clear();
		this.bytesRead = 0;
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		int index = this.output.size();
		this.bytesRead += (bytes != null) ? bytes.remaining() : 0;
		String name = (index < this.names.size()) ? this.names.get(index) : "#" + index;
		this.output.add((bytes == null) ? null
				: (this.hash != null) ? DecodedValueOutput.decode(this.format, bytes, this.hash, name)
						: DecodedValueOutput.decode(this.format, bytes, name, null));
	}

	@Override
	public long bytesRead() {
		return this.bytesRead;
	}

}
