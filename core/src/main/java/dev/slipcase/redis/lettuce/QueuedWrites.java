package dev.slipcase.redis.lettuce;

import java.util.Arrays;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;

/**
 * The commands of one {@link TransactionLane} block, each a type and its arguments (byte arrays,
 * numbers, keywords) in flat arrays: a block of many commands costs a few arrays, not a Lettuce
 * command, arguments and output per command. The caller fills it and hands it to the lane, which
 * seals it; the byte arrays stay the caller's, unchanged from then on. Read by the connection's
 * event loop, which writes its RESP ({@link #encode}) or, for a block sent as separate commands,
 * makes Lettuce arguments of it ({@link #args}). Not thread-safe while it is filled.
 */
public final class QueuedWrites {

	private ProtocolKeyword[] types;

	/** Per command, the index in {@link #arguments} after its last argument. */
	private int[] ends;

	/** Each a {@code byte[]}, a {@code Long} or a {@link ProtocolKeyword}. */
	private Object[] arguments;

	private int size;

	private int argumentCount;

	/** Handed to a lane: nothing is added any more. */
	private boolean sealed;

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

	/** Nothing is added from now on: a lane reads it. */
	void seal() {
		this.sealed = true;
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
				else if (value instanceof Long number) {
					Resp.bulk(buf, number);
				}
				else {
					Resp.bulk(buf, ((ProtocolKeyword) value).getBytes());
				}
			}
		}
	}

	/** The arguments of command {@code command} as Lettuce's, its first taken for its key. */
	CommandArgs<byte[], byte[]> args(int command) {
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE);
		int start = (command == 0) ? 0 : this.ends[command - 1];
		for (int argument = start; argument < this.ends[command]; argument++) {
			Object value = this.arguments[argument];
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

	@Override
	public String toString() {
		return this.size + " queued writes";
	}

}
