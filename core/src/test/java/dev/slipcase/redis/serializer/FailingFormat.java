package dev.slipcase.redis.serializer;

import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import io.netty.buffer.ByteBuf;

import org.springframework.data.redis.serializer.SerializationException;

/** A text format that writes a little and then fails. */
public final class FailingFormat implements TaggedFormat<Session> {

	@Override
	public void encode(Session value, ByteBuf out) {
		out.writeByte('{');
		throw new SerializationException("failing: on purpose");
	}

	@Override
	public Session decode(ByteBuf in) {
		throw new SerializationException("failing: on purpose");
	}

	@Override
	public int formatId() {
		return FormatHeader.JSON;
	}

	@Override
	public boolean isText() {
		return true;
	}

	@Override
	public String name() {
		return "failing";
	}

}
