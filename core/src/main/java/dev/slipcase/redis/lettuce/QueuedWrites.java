package dev.slipcase.redis.lettuce;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import dev.slipcase.redis.codec.EncodedValue;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

/**
 * The commands of one {@link TransactionLane} block, each a type and its arguments (byte arrays,
 * numbers, keywords, {@link EncodedValue}s) in flat arrays, not a Lettuce command per write. The
 * caller fills it and keeps owning its arrays and values; the lane seals it and pins the values
 * ({@link #hold}) until done with them ({@link #letGo}). The event loop writes its RESP
 * ({@link #encode}) or, for a block sent as separate commands, Lettuce arguments with the values
 * copied ({@link #args}). Not thread-safe while it is filled.
 */
public final class QueuedWrites {

	private static final AtomicIntegerFieldUpdater<QueuedWrites> HELD = AtomicIntegerFieldUpdater
		.newUpdater(QueuedWrites.class, "held");

	private ProtocolKeyword[] types;

	/** Per command, the index in {@link #arguments} after its last argument. */
	private int[] ends;

	/** Each a {@code byte[]}, a {@code Long}, a {@link ProtocolKeyword}, an {@link EncodedValue} or a {@link Prefixed}. */
	private Object[] arguments;

	private int size;

	private int argumentCount;

	/** Handed to a lane: nothing is added any more. */
	private boolean sealed;

	/** 1 while the lane pins the values, from {@link #hold} until {@link #letGo}. */
	private volatile int held;

	private QueuedWrites(int commands, int arguments) {
		this.types = new ProtocolKeyword[Math.max(1, commands)];
		this.ends = new int[this.types.length];
		this.arguments = new Object[Math.max(1, arguments)];
	}

	/**
	 * Room for {@code commands} commands of {@code arguments} arguments in all: more grow it.
	 * @param commands the expected number of commands, not negative
	 * @param arguments the expected number of arguments of all commands, their types left out
	 */
	public static QueuedWrites of(int commands, int arguments) {
		if (commands < 0 || arguments < 0) {
			throw new IllegalArgumentException("commands and arguments must not be negative: " + commands + ", "
					+ arguments);
		}
		return new QueuedWrites(commands, arguments);
	}

	/**
	 * Starts command {@code type}; the arguments added next are its own.
	 * @return this
	 */
	public QueuedWrites command(ProtocolKeyword type) {
		checkOpen();
		if (this.size == this.types.length) {
			this.types = Arrays.copyOf(this.types, 2 * this.size);
			this.ends = Arrays.copyOf(this.ends, 2 * this.size);
		}
		this.types[this.size] = type;
		this.ends[this.size] = this.argumentCount;
		this.size++;
		return this;
	}

	/**
	 * Adds an argument of bytes to the command started last: a key, a field, a value.
	 * @param bytes the caller's array, not changed afterwards
	 * @return this
	 */
	public QueuedWrites add(byte[] bytes) {
		return argument(bytes);
	}

	/**
	 * Adds an encoded value to the command started last. The caller keeps owning {@code value}, and
	 * must not release it before handing these writes to a lane, which pins it while it may write it.
	 * @return this
	 */
	public QueuedWrites add(EncodedValue value) {
		return argument(value);
	}

	/**
	 * Adds an argument of byte {@code prefix} followed by the bytes of {@code value}, written as one
	 * bulk string without copying the value; see {@link #add(EncodedValue)} for who owns it.
	 * @return this
	 */
	public QueuedWrites add(byte prefix, EncodedValue value) {
		return argument(new Prefixed(prefix, value));
	}

	/**
	 * Adds a number argument to the command started last.
	 * @return this
	 */
	public QueuedWrites add(long number) {
		return argument(number);
	}

	/**
	 * Adds a keyword argument ({@code PX}, {@code FIELDS}) to the command started last.
	 * @return this
	 */
	public QueuedWrites add(ProtocolKeyword keyword) {
		return argument(keyword);
	}

	private QueuedWrites argument(Object argument) {
		checkOpen();
		if (this.size == 0) {
			throw new IllegalStateException("An argument comes after its command");
		}
		if (this.argumentCount == this.arguments.length) {
			this.arguments = Arrays.copyOf(this.arguments, 2 * this.argumentCount);
		}
		this.arguments[this.argumentCount++] = argument;
		this.ends[this.size - 1] = this.argumentCount;
		return this;
	}

	private void checkOpen() {
		if (this.sealed) {
			throw new IllegalStateException("The writes were handed to a lane: nothing is added to them any more");
		}
	}

	/**
	 * Seals the writes (nothing is added from now on: a lane reads them) and pins their values until
	 * {@link #letGo}, so that they stay valid while the block may be written, whatever their owner
	 * does meanwhile.
	 * @return {@code false} when a value was released already (its call was given up): nothing is
	 * pinned then, and the block must not be written
	 */
	boolean hold() {
		this.sealed = true;
		for (int i = 0; i < this.argumentCount; i++) {
			EncodedValue value = value(this.arguments[i]);
			if (value != null && !value.pin()) {
				unpin(i);
				return false;
			}
		}
		this.held = 1;
		return true;
	}

	/** Undoes the pins of {@link #hold}, once however often it is called; nothing when nothing is held. */
	void letGo() {
		if (HELD.compareAndSet(this, 1, 0)) {
			unpin(this.argumentCount);
		}
	}

	/** Unpins the values of the arguments before {@code end}. */
	private void unpin(int end) {
		for (int i = 0; i < end; i++) {
			EncodedValue value = value(this.arguments[i]);
			if (value != null) {
				value.unpin();
			}
		}
	}

	private static @Nullable EncodedValue value(Object argument) {
		if (argument instanceof EncodedValue value) {
			return value;
		}
		return (argument instanceof Prefixed prefixed) ? prefixed.value() : null;
	}

	/** How many commands. */
	public int size() {
		return this.size;
	}

	/** The type of command {@code command}. */
	ProtocolKeyword type(int command) {
		return this.types[command];
	}

	/** Writes every command's RESP into {@code buf}, in order. */
	void encode(ByteBuf buf) {
		int argument = 0;
		for (int command = 0; command < this.size; command++) {
			int end = this.ends[command];
			Resp.command(buf, this.types[command], end - argument);
			for (; argument < end; argument++) {
				Object value = this.arguments[argument];
				if (value instanceof byte[] bytes) {
					Resp.bulk(buf, bytes);
				}
				else if (value instanceof EncodedValue encoded) {
					Resp.bulk(buf, encoded);
				}
				else if (value instanceof Prefixed prefixed) {
					Resp.bulk(buf, prefixed.prefix(), prefixed.value());
				}
				else if (value instanceof Long number) {
					Resp.bulk(buf, number);
				}
				else {
					Resp.bulk(buf, ((ProtocolKeyword) value).getBytes());
				}
			}
		}
	}

	/**
	 * The arguments of command {@code command} as Lettuce's, its first taken for its key, each value
	 * copied into an array: they stay valid after {@link #letGo}.
	 */
	CommandArgs<byte[], byte[]> args(int command) {
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE);
		int start = (command == 0) ? 0 : this.ends[command - 1];
		for (int argument = start; argument < this.ends[command]; argument++) {
			Object value = this.arguments[argument];
			if (value instanceof EncodedValue || value instanceof Prefixed) {
				value = copy(value);
			}
			if (value instanceof byte[] bytes) {
				if (argument == start) {
					args.addKey(bytes);
				}
				else {
					args.add(bytes);
				}
			}
			else if (value instanceof Long number) {
				args.add(number);
			}
			else {
				args.add((ProtocolKeyword) value);
			}
		}
		return args;
	}

	/** A heap copy of an encoded value's argument, its prefix included. */
	private static byte[] copy(Object argument) {
		if (argument instanceof EncodedValue value) {
			return value.toByteArray();
		}
		Prefixed prefixed = (Prefixed) argument;
		byte[] copy = new byte[1 + prefixed.value().size()];
		copy[0] = prefixed.prefix();
		prefixed.value().writeTo(Unpooled.wrappedBuffer(copy).writerIndex(1));
		return copy;
	}

	@Override
	public String toString() {
		return this.size + " queued writes";
	}

	/** An argument of one byte and then an encoded value's bytes. */
	private record Prefixed(byte prefix, EncodedValue value) {
	}

}
