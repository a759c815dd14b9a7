package dev.slipcase.redis.testformat;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * UTF-8 strings that fail on purpose: encoding a value starting with {@code "unwritable"} throws
 * after writing part of it, and decoding bytes starting with {@code "corrupt"} throws, as does
 * decoding bytes starting with {@code "crash"} with a non-serialization exception. Test only.
 */
public final class PickyFormat implements ValueFormat<String> {

	public static final PickyFormat INSTANCE = new PickyFormat();

	@Override
	public void encode(String value, ByteBuf out) {
		ByteBufUtil.writeUtf8(out, value);
		if (value.startsWith("unwritable")) {
			throw new SerializationException("test-picky: refuses to write '" + value + "'");
		}
	}

	@Override
	public String decode(ByteBuf in) {
		String value = in.readCharSequence(in.readableBytes(), StandardCharsets.UTF_8).toString();
		if (value.startsWith("corrupt")) {
			throw new SerializationException("test-picky: corrupt bytes");
		}
		if (value.startsWith("crash")) {
			throw new IllegalStateException("test-picky: crashed");
		}
		return value;
	}

	@Override
	public String name() {
		return "test-picky";
	}

}
