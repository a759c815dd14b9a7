package dev.slipcase.redis.codec;

import java.nio.ByteBuffer;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * A Lettuce codec for UTF-8 {@code String} keys, written with Netty's UTF-8 writer as
 * {@link Utf8KeyFormat} writes them, and values already serialized on the caller's thread
 * ({@link EncodedValue}): encoding copies the value's bytes into Lettuce's outbound buffer
 * and cannot fail for a serialization reason, so a value that does not serialize fails its own
 * call, never the shared connection. Key and value sizes are known exactly, so Lettuce writes
 * both straight into its outbound buffer with no temporary buffer.
 * <p>
 * The codec never releases an {@link EncodedValue}: the command that sends it does, when done.
 * {@link #decodeValue} returns an unpooled heap copy (garbage collected, nothing to release); the
 * template reads replies with its own outputs instead. Stateless and thread-safe; use
 * {@link #INSTANCE}.
 */
public final class EncodedValueCodec implements RedisCodec<String, EncodedValue>, ToByteBufEncoder<String, EncodedValue> {

	/** The one instance. */
	public static final EncodedValueCodec INSTANCE = new EncodedValueCodec();

	private EncodedValueCodec() {
	}

	@Override
	public String decodeKey(ByteBuffer bytes) {
		return FormatDecoding.decode(Utf8KeyFormat.INSTANCE, bytes, null);
	}

	/** An unpooled heap copy of the bytes, which needs no release. */
	@Override
	public EncodedValue decodeValue(ByteBuffer bytes) {
		return EncodedValue.wrap(Unpooled.copiedBuffer(bytes.duplicate()));
	}

	@Override
	public ByteBuffer encodeKey(String key) {
		int size = ByteBufUtil.utf8Bytes(key);
		ByteBuffer buffer = ByteBuffer.allocate(size);
		ByteBufUtil.reserveAndWriteUtf8(Unpooled.wrappedBuffer(buffer).clear(), key, size);
		return buffer;
	}

	@Override
	public ByteBuffer encodeValue(EncodedValue value) {
		ByteBuffer buffer = ByteBuffer.allocate(value.size());
		value.writeTo(Unpooled.wrappedBuffer(buffer).clear());
		return buffer;
	}

	/**
	 * Writes {@code key} as UTF-8 into Lettuce's buffer {@code target}. The caller (Lettuce)
	 * remains responsible for releasing {@code target}.
	 */
	@Override
	public void encodeKey(String key, ByteBuf target) {
		ByteBufUtil.reserveAndWriteUtf8(target, key, ByteBufUtil.utf8Bytes(key));
	}

	/**
	 * Copies the value's bytes into Lettuce's buffer {@code target} without consuming or releasing
	 * the value. The caller (Lettuce) remains responsible for releasing {@code target}.
	 */
	@Override
	public void encodeValue(EncodedValue value, ByteBuf target) {
		value.writeTo(target);
	}

	@Override
	public int estimateSize(Object keyOrValue) {
		if (keyOrValue instanceof EncodedValue value) {
			return value.size();
		}
		return ByteBufUtil.utf8Bytes((String) keyOrValue);
	}

	/** {@code true}: key sizes are counted exactly and values are already encoded. */
	@Override
	public boolean isEstimateExact() {
		return true;
	}

}
