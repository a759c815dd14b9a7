package dev.slipcase.redis.template;

import java.nio.ByteBuffer;

import dev.slipcase.redis.codec.CountsBytesRead;
import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.codec.FormatDecoding;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * One bulk reply decoded with a {@link ValueFormat} straight from Lettuce's receive buffer;
 * {@code null} for a missing key. A decode failure, a {@code KeyedSerializationException} naming
 * the key (and the field of a hash), is thrown to Lettuce, which completes only this command
 * exceptionally.
 */
final class DecodedValueOutput<V> extends CommandOutput<String, EncodedValue, @Nullable V> implements CountsBytesRead {

	private final ValueFormat<V> format;

	private final String key;

	private final @Nullable String field;

	private int bytesRead;

	/**
	 * @param key the key read
	 * @param field the field of the hash at {@code key} read, or {@code null} for the key's own value
	 */
	DecodedValueOutput(ValueFormat<V> format, String key, @Nullable String field) {
		super(EncodedValueCodec.INSTANCE, null);
		this.format = format;
		this.key = key;
		this.field = field;
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		this.bytesRead = (bytes != null) ? bytes.remaining() : 0;
		this.output = (bytes != null) ? decode(this.format, bytes, this.key, this.field) : null;
	}

	@Override
	public long bytesRead() {
		return this.bytesRead;
	}

	/** Decodes the value of {@code key}, or of {@code field} of the hash at {@code key}. */
	static <V> V decode(ValueFormat<V> format, ByteBuffer bytes, String key, @Nullable String field) {
		return (field != null) ? FormatDecoding.decodeField(format, bytes, key, field)
				: FormatDecoding.decode(format, bytes, key);
	}

}
