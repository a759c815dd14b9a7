package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * Reads of values ({@code GET}, {@code HGET}, {@code HMGET}) as one Lettuce command, and its own
 * output: {@link #encode} writes every read, and each value of their replies is stored at the
 * position the read was given in one array of values, so that a call reading many keys pays per key
 * for the wire and the value, not for a command, its arguments, its output and its future.
 * {@link #send} dispatches it on a standalone connection whose channel has a
 * {@link MultiReplyCommandHandler}; elsewhere (and on a cluster, whose nodes each hold their own
 * keys) the reads go out as commands of their own, as they do after a {@code PING} when a stock
 * handler takes it (sent while the connection opened, say). Reads change nothing, so after a reconnect it writes
 * them all again, as Lettuce writes a read again. An error reply or a connection failure fails the
 * whole read. Filled by one thread before it is sent; then encoded, read and completed on the
 * connection's event loop. Holds no buffer: the keys and fields are the caller's arrays, not
 * modified, and each value is copied out of the reply.
 */
public final class ValueReads extends MultiReplyCommand<byte[], byte[], List<byte @Nullable []>> {

	private static final byte[] GET = "$3\r\nGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] HGET = "$4\r\nHGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] HMGET = "$5\r\nHMGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private final byte[][] keys;

	/** Per read: {@code null} for {@code GET}, a {@code byte[]} for {@code HGET}, a {@code byte[][]} for {@code HMGET}. */
	private final @Nullable Object[] fields;

	/** Per {@code GET} or {@code HGET}: the position of its value. */
	private final int[] position;

	/** Per {@code HMGET}: the position of each of its values. */
	private final int[] @Nullable [] positions;

	private final byte @Nullable [][] values;

	private final List<byte @Nullable []> valueList;

	private final Result result = new Result();

	private final Values output = new Values();

	/** Where the reads go out as commands of their own when no handler takes them together. */
	private @Nullable CommandChannel<byte[], byte[]> channel;

	private int count;

	/** The value of the reply being read that is stored next. */
	private int element;

	/** The last write was {@code PING}: its reply is no read's. */
	private boolean pinged;

	/** A stock handler took the last write: the reads go out as commands of their own. */
	private boolean notAccepted;

	private @Nullable String errorReply;

	private @Nullable RuntimeException outputFailure;

	/** The separate reads, once they went out as commands of their own. */
	private volatile @Nullable List<SlipcaseCommand<byte[], byte[], ?>> separately;

	private ValueReads(int reads, int values) {
		super(ByteArrayCodec.INSTANCE);
		this.keys = new byte[reads][];
		this.fields = new Object[reads];
		this.position = new int[reads];
		this.positions = new int[reads][];
		this.values = new byte[values][];
		this.valueList = Arrays.asList(this.values);
	}

	/**
	 * Room for {@code reads} reads of {@code values} values in all, each value stored at a position
	 * from 0 to {@code values - 1}; a position no read names stays {@code null}.
	 */
	public static ValueReads of(int reads, int values) {
		return new ValueReads(reads, values);
	}

	/** {@code GET key}, its value stored at {@code position}. */
	public void get(byte[] key, int position) {
		add(key, null, position, null);
	}

	/** {@code HGET key field}, its value stored at {@code position}. */
	public void hget(byte[] key, byte[] field, int position) {
		add(key, field, position, null);
	}

	/** {@code HMGET key fields...}, the value of {@code fields[i]} stored at {@code positions[i]}. */
	public void hmget(byte[] key, byte[][] fields, int[] positions) {
		if (fields.length != positions.length) {
			throw new IllegalArgumentException(fields.length + " fields for " + positions.length + " positions");
		}
		add(key, fields, -1, positions);
	}

	private void add(byte[] key, @Nullable Object fields, int position, int @Nullable [] positions) {
		if (this.count == this.keys.length) {
			throw new IllegalStateException("Room for " + this.keys.length + " reads only");
		}
		this.keys[this.count] = key;
		this.fields[this.count] = fields;
		this.position[this.count] = position;
		this.positions[this.count] = positions;
		this.count++;
	}

	/**
	 * Sends the reads on {@code channel}, at once or as soon as its connection is open.
	 * @return the values, in positions; cancelling it keeps reads not written yet from being written
	 */
	public CompletableFuture<List<byte @Nullable []>> send(CommandChannel<byte[], byte[]> channel) {
		if (this.count == 0) {
			markDone();
			this.result.complete(this.valueList);
		}
		else if (channel.isCluster() || !takenTogether(channel)) {
			markDone();
			sendSeparately(channel);
		}
		else {
			this.channel = channel;
			channel.connections().dispatcher(channel.database()).send(this);
		}
		return this.result;
	}

	/**
	 * Whether the reads may go out as one command on {@code channel}: unless its connection is open
	 * and its channel has no {@link MultiReplyCommandHandler}, which would cost a {@code PING} and a
	 * round trip on every call. One sent while the connection opens learns it from its write.
	 */
	private static boolean takenTogether(CommandChannel<byte[], byte[]> channel) {
		OrderedDispatcher<byte[], byte[]> dispatcher = channel.connections().dispatcher(channel.database());
		if (!dispatcher.isDone() || dispatcher.isCompletedExceptionally()) {
			return true;
		}
		return MultiReplyCommandHandler.isInstalledOn(dispatcher.join());
	}

	/** The values, in positions, once every read replied: what {@link #send} returns. */
	CompletableFuture<List<byte @Nullable []>> values() {
		return this.result;
	}

	@Override
	public void encode(ByteBuf buf) {
		boolean accepted = takeAcceptance();
		this.element = 0;
		this.errorReply = null;
		this.outputFailure = null;
		this.pinged = isDone() || !accepted;
		if (this.pinged) {
			// cancelled before it was written, or a stock handler's: never several replies
			this.notAccepted = !isDone();
			writePing(buf);
			return;
		}
		Arrays.fill(this.values, null);
		expect(this.count);
		for (int read = 0; read < this.count; read++) {
			writeRead(buf, read);
		}
	}

	private void writeRead(ByteBuf buf, int read) {
		Object field = this.fields[read];
		if (field == null) {
			writeArrayHeader(buf, 2);
			buf.writeBytes(GET);
			writeBulk(buf, this.keys[read]);
		}
		else if (field instanceof byte[] one) {
			writeArrayHeader(buf, 3);
			buf.writeBytes(HGET);
			writeBulk(buf, this.keys[read]);
			writeBulk(buf, one);
		}
		else {
			byte[][] many = (byte[][]) field;
			writeArrayHeader(buf, 2 + many.length);
			buf.writeBytes(HMGET);
			writeBulk(buf, this.keys[read]);
			for (byte[] name : many) {
				writeBulk(buf, name);
			}
		}
	}

	private static void writeArrayHeader(ByteBuf buf, int size) {
		buf.writeByte('*');
		writeDecimal(buf, size);
		buf.writeByte('\r').writeByte('\n');
	}

	private static void writeBulk(ByteBuf buf, byte[] bytes) {
		buf.writeByte('$');
		writeDecimal(buf, bytes.length);
		buf.writeByte('\r').writeByte('\n');
		buf.writeBytes(bytes);
		buf.writeByte('\r').writeByte('\n');
	}

	/** Writes {@code value}, never negative, in ASCII digits. */
	private static void writeDecimal(ByteBuf buf, int value) {
		int divisor = 1;
		while (divisor <= value / 10) {
			divisor *= 10;
		}
		for (; divisor > 0; divisor /= 10) {
			buf.writeByte('0' + (value / divisor) % 10);
		}
	}

	/** Lettuce read the last reply ({@link MultiReplyCommandHandler#canComplete}), or a stock handler the first. */
	@Override
	public void complete() {
		if (!markDone()) {
			return;
		}
		CommandChannel<byte[], byte[]> channel = this.channel;
		if (this.notAccepted && channel != null) {
			sendSeparately(channel);
		}
		else if (this.outputFailure != null) {
			this.result.completeExceptionally(this.outputFailure);
		}
		else if (this.errorReply != null) {
			this.result.completeExceptionally(new RedisCommandExecutionException(this.errorReply));
		}
		else {
			this.result.complete(this.valueList);
		}
	}

	/** Sends each read as a command of its own in one write, completing the result once all replied. */
	private void sendSeparately(CommandChannel<byte[], byte[]> channel) {
		Pipeline<byte[], byte[]> pipeline = channel.pipeline();
		List<SlipcaseCommand<byte[], byte[], ?>> reads = new ArrayList<>(this.count);
		for (int read = 0; read < this.count; read++) {
			Object field = this.fields[read];
			if (field == null) {
				reads.add(pipeline.submit(BinaryCommands.get(this.keys[read])));
			}
			else if (field instanceof byte[] one) {
				reads.add(pipeline.submit(BinaryCommands.hget(this.keys[read], one)));
			}
			else {
				reads.add(pipeline.submit(BinaryCommands.hmget(this.keys[read], Arrays.asList((byte[][]) field))));
			}
		}
		this.separately = reads;
		if (this.result.isCancelled()) {
			reads.forEach((read) -> read.cancel(false));
			return;
		}
		pipeline.send();
		CommandChannel.settled(reads).thenRun(() -> completeFrom(reads));
	}

	private void completeFrom(List<SlipcaseCommand<byte[], byte[], ?>> reads) {
		for (int read = 0; read < this.count; read++) {
			SlipcaseCommand<byte[], byte[], ?> command = reads.get(read);
			if (command.isCompletedExceptionally()) {
				this.result.completeExceptionally(RedisFailures.unwrap(command.handle((value, failure) -> failure).join()));
				return;
			}
			Object reply = command.join();
			int[] at = this.positions[read];
			if (at == null) {
				this.values[this.position[read]] = (byte[]) reply;
				continue;
			}
			List<?> many = (List<?>) reply;
			for (int i = 0; i < at.length; i++) {
				this.values[at[i]] = (byte[]) many.get(i);
			}
		}
		this.result.complete(this.valueList);
	}

	/**
	 * Fails the whole read with {@code failure}: a failed connection (an {@code IOException}) fails
	 * it as Lettuce fails the oldest command of its stack.
	 */
	@Override
	public boolean completeExceptionally(Throwable failure) {
		if (!markDone()) {
			return false;
		}
		this.result.completeExceptionally(failure);
		return true;
	}

	@Override
	public void cancel() {
		if (markDone()) {
			this.result.cancel(false);
		}
	}

	@Override
	public ProtocolKeyword getType() {
		return BlockKeyword.READS;
	}

	@Override
	public List<byte @Nullable []> get() {
		return this.valueList;
	}

	/** The values' output, {@code null} for the reply to {@code PING}. */
	@Override
	@Nullable CommandOutput<byte[], byte[], ?> replyOutput() {
		return this.pinged ? null : this.output;
	}

	@Override
	void replyRead() {
		this.element = 0;
	}

	/** What an output threw fails the whole read once every reply is read. */
	@Override
	void outputFailed(RuntimeException failure) {
		if (this.outputFailure == null) {
			this.outputFailure = failure;
		}
	}

	@Override
	public String toString() {
		return "reads of " + this.values.length + " values in " + this.count + " commands";
	}

	/** Stores each value of the reply being read at its position; keeps the first error reply. */
	private final class Values extends CommandOutput<byte[], byte[], Void> {

		Values() {
			super(ByteArrayCodec.INSTANCE, null);
		}

		@Override
		public void set(@Nullable ByteBuffer bytes) {
			int read = received();
			int[] at = ValueReads.this.positions[read];
			int index = ValueReads.this.element++;
			int position;
			if (at != null) {
				if (index >= at.length) {
					throw new IllegalStateException("HMGET replied with more than the " + at.length + " values asked for");
				}
				position = at[index];
			}
			else {
				if (index > 0) {
					throw new IllegalStateException("A read of one value replied with several");
				}
				position = ValueReads.this.position[read];
			}
			byte[] value = null;
			if (bytes != null) {
				value = new byte[bytes.remaining()];
				bytes.get(value);
			}
			ValueReads.this.values[position] = value;
		}

		@Override
		public void setError(@Nullable ByteBuffer error) {
			if (ValueReads.this.errorReply == null) {
				ValueReads.this.errorReply = (error != null) ? StandardCharsets.UTF_8.decode(error).toString() : "ERR";
			}
		}

		@Override
		public void multi(int count) {
		}

	}

	/** The values; cancelling it makes the command done, so that it is never written, and cancels separate reads. */
	private final class Result extends CompletableFuture<List<byte @Nullable []>> {

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			boolean cancelled = super.cancel(mayInterruptIfRunning);
			markDone();
			List<SlipcaseCommand<byte[], byte[], ?>> reads = ValueReads.this.separately;
			if (reads != null) {
				reads.forEach((read) -> read.cancel(false));
			}
			return cancelled;
		}

	}

}
