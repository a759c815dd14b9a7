package dev.slipcase.redis.testformat;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/** Strings as UTF-8, with an exact estimate. Test only. */
public final class Utf8TestFormat implements ValueFormat<String> {

	public static final Utf8TestFormat INSTANCE = new Utf8TestFormat();

	@Override
	public void encode(String value, ByteBuf out) {
		ByteBufUtil.writeUtf8(out, value);
	}

	@Override
	public String decode(ByteBuf in) {
		String value = in.toString(StandardCharsets.UTF_8);
		in.skipBytes(in.readableBytes());
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
	public String name() {
		return "test-utf8";
	}

}
