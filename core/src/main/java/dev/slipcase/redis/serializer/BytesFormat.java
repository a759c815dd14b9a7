package dev.slipcase.redis.serializer;

import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Raw bytes passed through unchanged, with no header: what goes in is what Redis stores.
 * Decoding copies the readable bytes into a new array (the value must not refer to the buffer).
 * Works on any {@link ByteBuf}; never releases one. Thread-safe singleton.
 */
public final class BytesFormat implements TaggedFormat<byte[]> {

	/** The one instance. */
	public static final BytesFormat INSTANCE = new BytesFormat();

	private BytesFormat() {
	}

	@Override
	public void encode(byte[] value, ByteBuf out) {
		out.writeBytes(value);
	}

	@Override
	public byte[] decode(ByteBuf in) {
		byte[] value = ByteBufUtil.getBytes(in);
		in.skipBytes(value.length);
		return value;
	}

	@Override
	public int estimateSize(byte[] value) {
		return value.length;
	}

	@Override
	public boolean isEstimateExact() {
		return true;
	}

	@Override
	public int formatId() {
		return FormatHeader.BYTES;
	}

	/**
	 * Raw bytes may start with any byte, so inside a {@link SelfDescribingFormat} they always carry
	 * a header; {@link SlipcaseSerializers#bytes()} uses this format directly and stores them as is.
	 */
	@Override
	public boolean isText() {
		return false;
	}

	@Override
	public String name() {
		return "bytes";
	}

}
