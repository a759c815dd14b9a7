package dev.slipcase.redis.serializer;

import java.util.Map;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;

/**
 * Values of several allowlisted types behind one serializer, each written in its own type's
 * chosen format (polymorphic JSON or polymorphic Protostuff, compressed or not), all read back by
 * header. Made by {@link FormatRouter#format(TypeAllowlist)}. Immutable and thread-safe.
 */
final class TypeRoutingFormat implements ValueFormat<Object> {

	private final TypeAllowlist allowlist;

	private final Map<String, SelfDescribingFormat<Object>> writers;

	private final SelfDescribingFormat<Object> reader;

	TypeRoutingFormat(TypeAllowlist allowlist, Map<String, SelfDescribingFormat<Object>> writers,
			SelfDescribingFormat<Object> reader) {
		this.allowlist = allowlist;
		this.writers = Map.copyOf(writers);
		this.reader = reader;
	}

	@Override
	public SlipcaseObserver observer() {
		return this.reader.observer();
	}

	@Override
	public void encode(Object value, ByteBuf out) {
		String id = this.allowlist.requireIdOf(value, name());
		this.writers.get(id).encode(value, out);
	}

	@Override
	public Object decode(ByteBuf in) {
		return this.reader.decode(in);
	}

	@Override
	public int estimateSize(Object value) {
		String id = this.allowlist.idOf(value.getClass());
		return (id != null) ? this.writers.get(id).estimateSize(value) : 256;
	}

	@Override
	public String name() {
		return "routed";
	}

}
