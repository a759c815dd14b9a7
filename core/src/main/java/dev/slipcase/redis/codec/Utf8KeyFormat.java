package dev.slipcase.redis.codec;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;

/**
 * {@code String} keys as UTF-8, written straight into the target buffer (Netty's ASCII fast path
 * when the key is ASCII) and read straight from it, with no intermediate {@code byte[]}. The size
 * estimate is exact. Stateless and thread-safe; use {@link #INSTANCE}.
 * <p>
 * Writes the same bytes as the value format
 * {@link dev.slipcase.redis.serializer.Utf8StringFormat}, but reads leniently: a key that is not
 * well-formed UTF-8 (written by another client) decodes with replacement characters instead of
 * failing, so that listing or scanning keys never fails on one odd key, whereas a corrupt string
 * value must fail loudly.
 */
public final class Utf8KeyFormat implements ValueFormat<String> {

	/** The one instance. */
	public static final Utf8KeyFormat INSTANCE = new Utf8KeyFormat();

	private Utf8KeyFormat() {
	}

	/** Writes {@code value} as UTF-8 at {@code out}'s writer index. The caller remains responsible for releasing {@code out}. */
	@Override
	public void encode(String value, ByteBuf out) {
		Utf8StringFormat.INSTANCE.encode(value, out);
	}

	/** Reads all of {@code in}'s readable bytes as UTF-8. The caller remains responsible for releasing {@code in}; it is not retained. */
	@Override
	public String decode(ByteBuf in) {
		String key = in.toString(in.readerIndex(), in.readableBytes(), StandardCharsets.UTF_8);
		in.skipBytes(in.readableBytes());
		return key;
	}

	/** The exact number of UTF-8 bytes of {@code value}. */
	@Override
	public int estimateSize(String value) {
		return Utf8StringFormat.INSTANCE.estimateSize(value);
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
