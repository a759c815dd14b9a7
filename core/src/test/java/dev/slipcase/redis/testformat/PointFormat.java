package dev.slipcase.redis.testformat;

import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;

import org.springframework.data.redis.serializer.SerializationException;

/** {@link Point}s as exactly 20 big-endian bytes; anything else is rejected. Test only. */
public final class PointFormat implements ValueFormat<Point> {

	public static final PointFormat INSTANCE = new PointFormat();

	static final int SIZE = 20;

	@Override
	public void encode(Point value, ByteBuf out) {
		out.writeLong(value.x()).writeLong(value.y()).writeInt(value.tag());
	}

	@Override
	public Point decode(ByteBuf in) {
		if (in.readableBytes() != SIZE) {
			throw new SerializationException("test-point: expected " + SIZE + " bytes, got " + in.readableBytes());
		}
		return new Point(in.readLong(), in.readLong(), in.readInt());
	}

	@Override
	public int estimateSize(Point value) {
		return SIZE;
	}

	@Override
	public boolean isEstimateExact() {
		return true;
	}

	@Override
	public String name() {
		return "test-point";
	}

}
