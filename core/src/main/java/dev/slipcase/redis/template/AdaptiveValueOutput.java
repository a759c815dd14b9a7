package dev.slipcase.redis.template;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import dev.slipcase.redis.codec.CountsBytesRead;
import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.codec.FormatDecoding;
import dev.slipcase.redis.codec.HeldReply;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.lettuce.core.output.CommandOutput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

/**
 * One bulk reply for a caller that blocks on it anyway, decoded where it is cheapest: a reply
 * smaller than the threshold in place on the connection's event loop (no copy, as
 * {@link DecodedValueOutput} does); a larger one copied into a pooled buffer and parsed by the
 * caller in {@link #value()}, so that one event loop does not parse every large value of every
 * thread sharing the connection.
 * <p>
 * The command completes with this output itself. The copy has exactly one owner at every moment:
 * this output until {@link #value()} takes, decodes and releases it; when the command fails or is
 * cancelled, or the caller gives up waiting, {@link #abandon()} releases it instead, also when the
 * reply arrives after that.
 */
final class AdaptiveValueOutput<V> extends CommandOutput<String, EncodedValue, AdaptiveValueOutput<V>>
		implements HeldReply, CountsBytesRead {

	private static final Object TAKEN = new Object();

	@SuppressWarnings("rawtypes")
	private static final AtomicReferenceFieldUpdater<AdaptiveValueOutput, Object> COPY = AtomicReferenceFieldUpdater
		.newUpdater(AdaptiveValueOutput.class, Object.class, "copy");

	private final ValueFormat<V> format;

	private final String key;

	private final @Nullable String field;

	private final ByteBufAllocator allocator;

	private final int callerDecodeFrom;

	private int bytesRead;

	/** The reply decoded on the event loop; published to the caller by the command's completion. */
	private @Nullable V decoded;

	/** {@code null}, the copied reply ({@link ByteBuf}), or {@link #TAKEN} once taken or abandoned. */
	private volatile @Nullable Object copy;

	/**
	 * @param key the key read
	 * @param field the field of the hash at {@code key} read, or {@code null} for the key's own value
	 * @param callerDecodeFrom the size from which a reply is decoded by the caller, in bytes
	 */
	AdaptiveValueOutput(ValueFormat<V> format, String key, @Nullable String field, ByteBufAllocator allocator,
			int callerDecodeFrom) {
		super(EncodedValueCodec.INSTANCE, null);
		this.format = format;
		this.key = key;
		this.field = field;
		this.allocator = allocator;
		this.callerDecodeFrom = callerDecodeFrom;
		this.output = this;
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		if (bytes == null) {
			return;
		}
		this.bytesRead = bytes.remaining();
		if (bytes.remaining() < this.callerDecodeFrom) {
			this.decoded = DecodedValueOutput.decode(this.format, bytes, this.key, this.field);
			return;
		}
		ByteBuf copied = HeldReply.copy(this.allocator, bytes);
		if (!COPY.compareAndSet(this, null, copied)) {
			copied.release();
		}
	}

	/**
	 * The value read, or {@code null} for a missing key: decoded already, or decoded now on the
	 * calling thread from the copy, which is then released. Called once, after the command
	 * completed successfully.
	 * @throws dev.slipcase.redis.serializer.KeyedSerializationException naming the key (and field)
	 * when the copy does not decode
	 */
	@Nullable V value() {
		Object taken = COPY.getAndSet(this, TAKEN);
		if (!(taken instanceof ByteBuf copied)) {
			return this.decoded;
		}
		try {
			return (this.field != null) ? FormatDecoding.decodeField(this.format, copied, this.key, this.field)
					: FormatDecoding.decode(this.format, copied, this.key);
		}
		finally {
			copied.release();
		}
	}

	@Override
	public long bytesRead() {
		return this.bytesRead;
	}

	@Override
	public boolean handedOver(@Nullable Object result) {
		return result == this;
	}

	@Override
	public void abandon() {
		Object previous = COPY.getAndSet(this, TAKEN);
		if (previous instanceof ByteBuf copied) {
			copied.release();
		}
	}

}
