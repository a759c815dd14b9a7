package dev.slipcase.redis.serializer;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Strings as UTF-8 bytes with no header: the same bytes Spring Data's
 * {@code StringRedisSerializer} writes, so either reads the other's values.
 * <p>
 * Encoding sizes the output exactly first, then writes it in one pass (pure ASCII is copied char
 * by char with no encoder). Decoding takes an ASCII fast path and otherwise validates the bytes
 * as well-formed UTF-8: malformed input is refused rather than silently replaced with
 * {@code U+FFFD}. Works on any {@link ByteBuf}; never releases one. Thread-safe singleton.
 */
public final class Utf8StringFormat implements TaggedFormat<String> {

	/** The one instance. */
	public static final Utf8StringFormat INSTANCE = new Utf8StringFormat();

	private Utf8StringFormat() {
	}

	@Override
	public void encode(String value, ByteBuf out) {
		ByteBufUtil.reserveAndWriteUtf8(out, value, ByteBufUtil.utf8Bytes(value));
	}

	@Override
	public String decode(ByteBuf in) {
		int index = in.readerIndex();
		int length = in.readableBytes();
		String value;
		if (ByteBufUtil.isText(in, index, length, StandardCharsets.US_ASCII)) {
			value = in.toString(index, length, StandardCharsets.US_ASCII);
		}
		else if (ByteBufUtil.isText(in, index, length, StandardCharsets.UTF_8)) {
			value = in.toString(index, length, StandardCharsets.UTF_8);
		}
		else {
			throw FormatErrors.error(name(), "value is not well-formed UTF-8 (" + length + " bytes)");
		}
		in.skipBytes(length);
		return value;
	}

	@Override
	public int estimateSize(String value) {
		return ByteBufUtil.utf8Bytes(value);
	}

	@Override
	public boolean isEstimateExact() {
		return true;
	}

	@Override
	public int formatId() {
		return FormatHeader.STRING;
	}

	@Override
	public boolean isText() {
		return true;
	}

	@Override
	public String name() {
		return "string";
	}

}
