package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * Reads of values ({@code GET}, {@code HGET}, {@code HMGET}) as one Lettuce command and its own
 * output, each value of the replies stored at its read's position in one array: a call reading many
 * keys pays per key for the wire and the value, not for a command and its objects. It goes out as one
 * command where the connection's channel (on a cluster, each node's) has a
 * {@link MultiReplyCommandHandler}; elsewhere, and for reads a node redirects, the reads go out as
 * commands of their own. Written whole again after a reconnect; an error reply or a failed
 * connection fails the whole read. Holds no buffer: keys and fields are the caller's arrays, each
 * value a copy out of the reply.
 */
public final class ValueReads extends MultiReplyCommand<byte[], byte[], List<byte @Nullable []>> {

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

	/** The reply being read is an error. */
	private boolean errorRead;

	/** The last write was {@code PING}: its reply is no read's. */
	private boolean pinged;

	/** A stock handler took the last write: the reads go out as commands of their own. */
	private boolean notAccepted;

	private @Nullable String errorReply;

	private @Nullable RuntimeException outputFailure;

	/** The separate reads, once they went out as commands of their own. */
	private volatile @Nullable List<SlipcaseCommand<byte[], byte[], ?>> separately;

	/** On a cluster, the reads of each master, each sent as one command to it. */
	private volatile @Nullable List<ValueReads> parts;

	/** The reads a cluster node redirected ({@code MOVED}, {@code ASK}), by index; {@code null} for none. */
	private boolean @Nullable [] redirected;

	private ValueReads(int reads, int values) {
		this(reads, new byte[values][]);
	}

	/** Room for {@code reads} reads whose values go into {@code values}, which others may share. */
	private ValueReads(int reads, byte @Nullable [][] values) {
		super(ByteArrayCodec.INSTANCE);
		this.keys = new byte[reads][];
		this.fields = new Object[reads];
		this.position = new int[reads];
		this.positions = new int[reads][];
		this.values = values;
		this.valueList = Arrays.asList(values);
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
		this.channel = channel;
		StatefulConnection<byte[], byte[]> open = openConnection(channel);
		if (this.count == 0) {
			markDone();
			this.result.complete(this.valueList);
		}
		else if (open instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
			markDone();
			sendByNode(channel, cluster);
		}
		else if (open != null && MultiReplyCommandHandler.isInstalledOn(open)) {
			channel.dispatcher().send(this);
		}
		else {
			markDone();
			sendSeparately(channel, null);
		}
		return this.result;
	}

	/**
	 * The open connection of {@code channel}, {@code null} while it opens (or failed to). Only on an
	 * open connection can reads tell whether their channel takes them as one command: elsewhere the
	 * {@code PING} a stock handler makes them write would cost a round trip, and the reads sent after
	 * it would follow commands sent after them (a master/replica connection's channels, for one,
	 * have no {@link MultiReplyCommandHandler}).
	 */
	private static @Nullable StatefulConnection<byte[], byte[]> openConnection(CommandChannel<byte[], byte[]> channel) {
		OrderedDispatcher<byte[], byte[]> dispatcher = channel.dispatcher();
		return (dispatcher.isDone() && !dispatcher.isCompletedExceptionally()) ? dispatcher.join() : null;
	}

	/**
	 * Sends the reads of each node as one command on the connection the cluster connection writes
	 * their slots to ({@link ClusterSlotConnections}), when every such connection is open with a
	 * {@link MultiReplyCommandHandler} and reads go to masters; else as commands of their own.
	 */
	private void sendByNode(CommandChannel<byte[], byte[]> channel,
			StatefulRedisClusterConnection<byte[], byte[]> cluster) {
		List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>(4);
		int[] nodeOf = new int[this.count];
		if (!ClusterSlotConnections.route(cluster, this.keys, this.count, connections, nodeOf)) {
			sendSeparately(channel, null);
			return;
		}
		int[] readsOf = new int[connections.size()];
		for (int read = 0; read < this.count; read++) {
			readsOf[nodeOf[read]]++;
		}
		List<ValueReads> byNode = new ArrayList<>(connections.size());
		for (int node = 0; node < connections.size(); node++) {
			ValueReads reads = new ValueReads(readsOf[node], this.values);
			reads.channel = channel;
			byNode.add(reads);
		}
		for (int read = 0; read < this.count; read++) {
			byNode.get(nodeOf[read]).add(this.keys[read], this.fields[read], this.position[read], this.positions[read]);
		}
		this.parts = byNode;
		if (this.result.isCancelled()) {
			return;
		}
		CompletableFuture<?>[] replies = new CompletableFuture<?>[byNode.size()];
		for (int node = 0; node < byNode.size(); node++) {
			replies[node] = byNode.get(node).result;
			OrderedDispatcher.sendTo(connections.get(node), byNode.get(node));
		}
		CompletableFuture.allOf(replies).whenComplete((done, failure) -> {
			if (failure != null) {
				this.result.completeExceptionally(RedisFailures.unwrap(failure));
			}
			else {
				this.result.complete(this.valueList);
			}
		});
	}

	/** The values, in positions, once every read replied: what {@link #send} returns. */
	CompletableFuture<List<byte @Nullable []>> values() {
		return this.result;
	}

	@Override
	public void encode(ByteBuf buf) {
		boolean accepted = takeAcceptance();
		this.element = 0;
		this.errorRead = false;
		this.errorReply = null;
		this.outputFailure = null;
		this.pinged = isDone() || !accepted;
		if (this.pinged) {
			// cancelled before it was written, or a stock handler's: never several replies
			this.notAccepted = !isDone();
			writePing(buf);
			return;
		}
		clearOwnValues();
		expect(this.count);
		for (int read = 0; read < this.count; read++) {
			writeRead(buf, read);
		}
	}

	/** Clears the values of its reads, before they are read (again): others may share the array. */
	private void clearOwnValues() {
		for (int read = 0; read < this.count; read++) {
			int[] at = this.positions[read];
			if (at == null) {
				this.values[this.position[read]] = null;
				continue;
			}
			for (int position : at) {
				this.values[position] = null;
			}
		}
		this.redirected = null;
	}

	private void writeRead(ByteBuf buf, int read) {
		Object field = this.fields[read];
		if (field == null) {
			Resp.get(buf, this.keys[read]);
		}
		else if (field instanceof byte[] one) {
			Resp.hget(buf, this.keys[read], one);
		}
		else {
			Resp.hmget(buf, this.keys[read], (byte[][]) field);
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
			sendSeparately(channel, null);
		}
		else if (this.outputFailure != null) {
			this.result.completeExceptionally(this.outputFailure);
		}
		else if (this.errorReply != null) {
			this.result.completeExceptionally(new RedisCommandExecutionException(this.errorReply));
		}
		else if (this.redirected != null && channel != null) {
			// through the cluster connection, which follows MOVED and ASK
			sendSeparately(channel, this.redirected);
		}
		else {
			this.result.complete(this.valueList);
		}
	}

	/**
	 * Sends each read as a command of its own in one write, completing the result once all replied.
	 * @param only the reads to send, by index; {@code null} for all (a read left out has its value)
	 */
	private void sendSeparately(CommandChannel<byte[], byte[]> channel, boolean @Nullable [] only) {
		Pipeline<byte[], byte[]> pipeline = channel.pipeline();
		List<@Nullable SlipcaseCommand<byte[], byte[], ?>> reads = new ArrayList<>(this.count);
		for (int read = 0; read < this.count; read++) {
			if (only != null && !only[read]) {
				reads.add(null);
				continue;
			}
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
		this.separately = pipeline.commands();
		if (this.result.isCancelled()) {
			pipeline.commands().forEach((read) -> read.cancel(false));
			return;
		}
		pipeline.send();
		CommandChannel.settled(pipeline.commands()).thenRun(() -> completeFrom(reads)).exceptionally((failure) -> {
			this.result.completeExceptionally(RedisFailures.unwrap(failure));
			return null;
		});
	}

	private void completeFrom(List<@Nullable SlipcaseCommand<byte[], byte[], ?>> reads) {
		for (int read = 0; read < this.count; read++) {
			SlipcaseCommand<byte[], byte[], ?> command = reads.get(read);
			if (command == null) {
				continue;
			}
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

	/** An {@code HMGET} reply of fewer values than fields fails the read, as one of more does. */
	@Override
	void replyRead() {
		int[] at = this.pinged ? null : this.positions[received()];
		if (at != null && !this.errorRead && this.element != at.length) {
			outputFailed(new IllegalStateException(
					"HMGET replied with " + this.element + " values for " + at.length + " fields"));
		}
		this.element = 0;
		this.errorRead = false;
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

		/** Keeps the first error reply, or marks the read redirected by a cluster node. */
		@Override
		public void setError(@Nullable ByteBuffer error) {
			ValueReads.this.errorRead = true;
			String words = (error != null) ? StandardCharsets.UTF_8.decode(error).toString() : "ERR";
			if (RedisFailures.isRedirection(words)) {
				if (ValueReads.this.redirected == null) {
					ValueReads.this.redirected = new boolean[ValueReads.this.count];
				}
				ValueReads.this.redirected[received()] = true;
			}
			else if (ValueReads.this.errorReply == null) {
				ValueReads.this.errorReply = words;
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
			List<ValueReads> parts = ValueReads.this.parts;
			if (parts != null) {
				parts.forEach((part) -> part.result.cancel(false));
			}
			return cancelled;
		}

	}

}
