package dev.slipcase.redis.serializer.protostuff;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import io.netty.buffer.ByteBuf;

import org.springframework.util.Assert;

/**
 * Protostuff for values of several types behind one serializer: the body is the short type id a
 * {@link TypeAllowlist} gives the value's type (one length byte, then the id in ASCII) followed by
 * the {@link ProtostuffFormat} body for that type. A payload naming an id outside the allowlist is
 * refused. Binary, so a {@link SelfDescribingFormat} always stores it behind a header. Works on
 * any {@link ByteBuf}; never releases one. Immutable and thread-safe.
 */
public final class PolymorphicProtostuffFormat implements TaggedFormat<Object> {

	private final TypeAllowlist allowlist;

	private final Map<String, ProtostuffFormat<Object>> formats;

	private final Map<String, String> unsupported;

	private PolymorphicProtostuffFormat(TypeAllowlist allowlist) {
		this.allowlist = allowlist;
		Map<String, ProtostuffFormat<Object>> formats = new LinkedHashMap<>();
		Map<String, String> unsupported = new LinkedHashMap<>();
		for (Map.Entry<String, Type> entry : allowlist.declaredTypes().entrySet()) {
			try {
				formats.put(entry.getKey(), ProtostuffFormat.of(entry.getValue()));
			}
			catch (IllegalArgumentException ex) {
				// not representable in Protostuff: written and read in another format
				unsupported.put(entry.getKey(), ex.getMessage());
			}
		}
		this.formats = Map.copyOf(formats);
		this.unsupported = Map.copyOf(unsupported);
	}

	/**
	 * Polymorphic Protostuff for the allowlisted types (those Protostuff cannot represent are
	 * refused when written).
	 */
	public static PolymorphicProtostuffFormat of(TypeAllowlist allowlist) {
		Assert.notNull(allowlist, "allowlist must not be null");
		return new PolymorphicProtostuffFormat(allowlist);
	}

	/** Whether values of the type allowed under {@code id} can be written in this format. */
	public boolean supports(String id) {
		return this.formats.containsKey(id);
	}

	/**
	 * Checks that values of the type allowed under {@code id} can be written in this format.
	 * @throws IllegalArgumentException saying why they cannot
	 */
	public void requireSupported(String id) {
		String reason = this.unsupported.get(id);
		if (reason != null) {
			throw new IllegalArgumentException("type id '" + id + "' chooses protostuff, but " + reason);
		}
	}

	@Override
	public void encode(Object value, ByteBuf out) {
		String id = this.allowlist.requireIdOf(value, name());
		ProtostuffFormat<Object> format = this.formats.get(id);
		if (format == null) {
			throw FormatErrors.error(name(), "type id '" + id + "' (" + this.allowlist.typeOf(id)
					+ ") cannot be represented in protostuff");
		}
		out.writeByte(id.length());
		out.writeCharSequence(id, StandardCharsets.US_ASCII);
		format.encode(value, out);
	}

	@Override
	public Object decode(ByteBuf in) {
		if (!in.isReadable()) {
			throw FormatErrors.error(name(), "empty value");
		}
		int length = in.readUnsignedByte();
		if (length == 0 || length > 64 || in.readableBytes() < length) {
			throw FormatErrors.error(name(), "invalid type id length " + length);
		}
		String id = in.readCharSequence(length, StandardCharsets.US_ASCII).toString();
		ProtostuffFormat<Object> format = this.formats.get(id);
		if (format == null) {
			throw FormatErrors.error(name(), "type id '" + id.replaceAll("[^\\x20-\\x7e]", "?")
					+ "' is not in the allowlist " + this.formats.keySet());
		}
		return format.decode(in);
	}

	@Override
	public int estimateSize(Object value) {
		return 256;
	}

	@Override
	public int formatId() {
		return FormatHeader.POLYMORPHIC_PROTOSTUFF;
	}

	@Override
	public boolean isText() {
		return false;
	}

	@Override
	public String name() {
		return "polymorphic-protostuff";
	}

}
