package dev.slipcase.redis.template;

import java.io.InputStream;
import java.io.OutputStream;

import dev.slipcase.redis.serializer.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * TEMPORARY, benchmark-only stand-in for Slipcase's JSON {@link ValueFormat} (written in parallel
 * in {@code slipcase-core}'s serializer package): plain Jackson 3 streaming straight into and out
 * of the Netty buffer, typed, with no header. {@link TemplateCandidates#slipcaseJson} is the one
 * place to point at the real format once it is merged; then delete this class.
 */
final class InterimJsonFormat implements ValueFormat<Object> {

	private final JsonMapper mapper;

	private final JavaType type;

	private volatile int lastSize = 1024;

	InterimJsonFormat(JsonMapper mapper, JavaType type) {
		this.mapper = mapper;
		this.type = type;
	}

	@Override
	public void encode(Object value, ByteBuf out) {
		int start = out.writerIndex();
		try {
			this.mapper.writeValue((OutputStream) new ByteBufOutputStream(out), value);
		}
		catch (JacksonException ex) {
			throw new SerializationException("interim-json: cannot write " + value.getClass().getName(), ex);
		}
		this.lastSize = out.writerIndex() - start;
	}

	@Override
	public Object decode(ByteBuf in) {
		try {
			return this.mapper.readValue((InputStream) new ByteBufInputStream(in), this.type);
		}
		catch (JacksonException ex) {
			throw new SerializationException("interim-json: cannot read " + this.type, ex);
		}
	}

	@Override
	public int estimateSize(Object value) {
		return this.lastSize;
	}

	@Override
	public String name() {
		return "interim-json";
	}

}
