package dev.slipcase.redis.codec;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.serializer.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * {@code String} keys as UTF-8, written straight into the target buffer (Netty's ASCII fast path
 * when the key is ASCII) and read straight from it, with no intermediate {@code byte[]}. The size
 * estimate is exact. Stateless and thread-safe; use {@link #INSTANCE}.
 */
public final class Utf8KeyFormat implements ValueFormat<String> {

	/** The one instance. */
	public static final Utf8KeyFormat INSTANCE = new Utf8KeyFormat();

	private Utf8KeyFormat() {
	}

	/** Writes {@code value} as UTF-8 at {@code out}'s writer index; never releases {@code out}. */
	@Override
	public void encode(String value, ByteBuf out) {
		ByteBufUtil.reserveAndWriteUtf8(out, value, ByteBufUtil.utf8Bytes(value));
	}

	/** Reads all of {@code in}'s readable bytes as UTF-8; never releases or retains {@code in}. */
	@Override
	public String decode(ByteBuf in) {
		String key = in.toString(in.readerIndex(), in.readableBytes(), StandardCharsets.UTF_8);
		in.skipBytes(in.readableBytes());
		return key;
	}

	/** The exact number of UTF-8 bytes of {@code value}. */
	@Override
	public int estimateSize(String value) {
		return ByteBufUtil.utf8Bytes(value);
	}

	@Override
	public boolean isEstimateExact() {
		return true;
	}

	@Override
	public String name() {
		return "utf8-key";
	}

}
