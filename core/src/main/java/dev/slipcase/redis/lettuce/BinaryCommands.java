package dev.slipcase.redis.lettuce;

import java.util.List;
import java.util.Map;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerListOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.MapOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import org.jspecify.annotations.Nullable;

/**
 * Redis commands on {@code byte[]} keys and values, built as Lettuce commands that a
 * {@link CommandChannel} or {@link Pipeline} sends: the vocabulary a byte-level store chooses its
 * commands from. Each method returns a new command, which is the future of its reply. The arrays
 * passed in are sent as they are and must not be changed until the command completes. A write is
 * sent at most once ({@link SlipcaseCommand#write}): one whose reply was lost with its connection fails
 * as unknown rather than being written again after the reconnect; a read is written again.
 */
public final class BinaryCommands {

	private static final ByteArrayCodec CODEC = ByteArrayCodec.INSTANCE;

	private BinaryCommands() {
	}

	/** {@code GET key}: the value, or {@code null}. */
	public static SlipcaseCommand<byte[], byte[], byte @Nullable []> get(byte[] key) {
		return read(CommandType.GET, new ValueOutput<>(CODEC), args().addKey(key));
	}

	/** {@code SET key value NX}: {@code "OK"}, or {@code null} when the key exists; sent at most once. */
	public static SlipcaseCommand<byte[], byte[], @Nullable String> setIfAbsent(byte[] key, byte[] value) {
		return write(CommandType.SET, new StatusOutput<>(CODEC), args().addKey(key).addValue(value).add(CommandKeyword.NX));
	}

	/** {@code EXISTS key}: 1 or 0. */
	public static SlipcaseCommand<byte[], byte[], Long> exists(byte[] key) {
		return read(CommandType.EXISTS, new IntegerOutput<>(CODEC), args().addKey(key));
	}

	/** {@code DEL key}: 1 when the key existed, else 0; sent at most once. */
	public static SlipcaseCommand<byte[], byte[], Long> del(byte[] key) {
		return write(CommandType.DEL, new IntegerOutput<>(CODEC), args().addKey(key));
	}

	/**
	 * {@code SET key value}, with {@code PX millis} when {@code millis} is positive: {@code OK};
	 * sent at most once (see {@link SlipcaseCommand#write}).
	 */
	public static SlipcaseCommand<byte[], byte[], String> set(byte[] key, byte[] value, long millis) {
		CommandArgs<byte[], byte[]> args = args().addKey(key).addValue(value);
		if (millis > 0) {
			args.add("PX").add(millis);
		}
		return SlipcaseCommand.write(CommandType.SET, new StatusOutput<>(CODEC), args);
	}

	/** {@code PTTL key}: the TTL in milliseconds, -1 without one, -2 when the key does not exist. */
	public static SlipcaseCommand<byte[], byte[], Long> pttl(byte[] key) {
		return read(CommandType.PTTL, new IntegerOutput<>(CODEC), args().addKey(key));
	}

	/** {@code PEXPIRE key millis}: whether the key exists; sent at most once. */
	public static SlipcaseCommand<byte[], byte[], Boolean> pexpire(byte[] key, long millis) {
		return write(CommandType.PEXPIRE, new BooleanOutput<>(CODEC), args().addKey(key).add(millis));
	}

	/** {@code INCRBY key delta}: the new value; sent at most once (see {@link SlipcaseCommand#write}). */
	public static SlipcaseCommand<byte[], byte[], Long> incrby(byte[] key, long delta) {
		return SlipcaseCommand.write(CommandType.INCRBY, new IntegerOutput<>(CODEC), args().addKey(key).add(delta));
	}

	/** {@code INCRBYFLOAT key delta}: the new value; sent at most once (see {@link SlipcaseCommand#write}). */
	public static SlipcaseCommand<byte[], byte[], Double> incrbyfloat(byte[] key, double delta) {
		return SlipcaseCommand.write(CommandType.INCRBYFLOAT, new DoubleOutput<>(CODEC), args().addKey(key).add(delta));
	}

	/** {@code HINCRBY key field delta}: the new value; sent at most once (see {@link SlipcaseCommand#write}). */
	public static SlipcaseCommand<byte[], byte[], Long> hincrby(byte[] key, byte[] field, long delta) {
		return SlipcaseCommand.write(CommandType.HINCRBY, new IntegerOutput<>(CODEC),
				args().addKey(key).add(field).add(delta));
	}

	/** {@code HSET key field value}: 1 when the field is new, else 0; sent at most once. */
	public static SlipcaseCommand<byte[], byte[], Long> hset(byte[] key, byte[] field, byte[] value) {
		return write(CommandType.HSET, new IntegerOutput<>(CODEC), args().addKey(key).add(field).addValue(value));
	}

	/** {@code HGET key field}: the value, or {@code null}. */
	public static SlipcaseCommand<byte[], byte[], byte @Nullable []> hget(byte[] key, byte[] field) {
		return read(CommandType.HGET, new ValueOutput<>(CODEC), args().addKey(key).addKey(field));
	}

	/** {@code HMGET key fields...}: the values in the order of the fields, {@code null} where absent. */
	public static SlipcaseCommand<byte[], byte[], List<byte @Nullable []>> hmget(byte[] key, List<byte[]> fields) {
		return read(CommandType.HMGET, new ValueListOutput<>(CODEC), args().addKey(key).addKeys(fields));
	}

	/** {@code HEXISTS key field}. */
	public static SlipcaseCommand<byte[], byte[], Boolean> hexists(byte[] key, byte[] field) {
		return read(CommandType.HEXISTS, new BooleanOutput<>(CODEC), args().addKey(key).addKey(field));
	}

	/** {@code HGETALL key}: fields and values (keyed by array identity). */
	public static SlipcaseCommand<byte[], byte[], Map<byte[], byte[]>> hgetall(byte[] key) {
		return read(CommandType.HGETALL, new MapOutput<>(CODEC), args().addKey(key));
	}

	/** {@code HLEN key}. */
	public static SlipcaseCommand<byte[], byte[], Long> hlen(byte[] key) {
		return read(CommandType.HLEN, new IntegerOutput<>(CODEC), args().addKey(key));
	}

	/** {@code HPEXPIRE key millis FIELDS 1 field} (Redis 7.4+): per field 1 when set, -2 when absent; sent at most once. */
	public static SlipcaseCommand<byte[], byte[], List<Long>> hpexpire(byte[] key, long millis, byte[] field) {
		return write(CommandType.HPEXPIRE, new IntegerListOutput<>(CODEC), fields(args().addKey(key).add(millis), field));
	}

	/** {@code HPTTL key FIELDS 1 field} (Redis 7.4+): per field its TTL, as {@code PTTL} gives it. */
	public static SlipcaseCommand<byte[], byte[], List<Long>> hpttl(byte[] key, byte[] field) {
		return read(CommandType.HPTTL, new IntegerListOutput<>(CODEC), fields(args().addKey(key), field));
	}

	/** {@code OBJECT ENCODING key}: the encoding, or {@code null} when the key does not exist. */
	public static SlipcaseCommand<byte[], byte[], @Nullable String> objectEncoding(byte[] key) {
		return read(CommandType.OBJECT, new StatusOutput<>(CODEC), args().add(CommandKeyword.ENCODING).addKey(key));
	}

	/** {@code MEMORY USAGE key}: bytes, or {@code null} when the key does not exist. */
	public static SlipcaseCommand<byte[], byte[], @Nullable Long> memoryUsage(byte[] key) {
		return read(CommandType.MEMORY, new IntegerOutput<>(CODEC), args().add(CommandKeyword.USAGE).addKey(key));
	}

	/** {@code CONFIG GET parameter}: the parameters matched and their values. */
	public static SlipcaseCommand<byte[], byte[], Map<byte[], byte[]>> configGet(String parameter) {
		return read(CommandType.CONFIG, new MapOutput<>(CODEC), args().add(CommandType.GET).add(parameter));
	}

	/** {@code INFO section}. */
	public static SlipcaseCommand<byte[], byte[], String> info(String section) {
		return read(CommandType.INFO, new StatusOutput<>(CODEC), args().add(section));
	}

	/** {@code COMMAND INFO names...}: per name its description, or {@code null} for an unknown command. */
	public static SlipcaseCommand<byte[], byte[], List<Object>> commandInfo(String... names) {
		CommandArgs<byte[], byte[]> args = args().add(CommandKeyword.INFO);
		for (String name : names) {
			args.add(name);
		}
		return read(CommandType.COMMAND, new ArrayOutput<>(CODEC), args);
	}

	/** {@code args} followed by {@code FIELDS 1 field}, as the hash-field TTL commands take it. */
	private static CommandArgs<byte[], byte[]> fields(CommandArgs<byte[], byte[]> args, byte[] field) {
		return args.add(CommandKeyword.FIELDS).add(1).addKey(field);
	}

	/** A write: sent at most once, see {@link SlipcaseCommand#write}. */
	private static <T> SlipcaseCommand<byte[], byte[], T> write(ProtocolKeyword type,
			CommandOutput<byte[], byte[], T> output, CommandArgs<byte[], byte[]> args) {
		return SlipcaseCommand.write(type, output, args);
	}

	/** A read: Lettuce writes it again after a reconnect, see {@link SlipcaseCommand#read}. */
	private static <T> SlipcaseCommand<byte[], byte[], T> read(ProtocolKeyword type,
			CommandOutput<byte[], byte[], T> output, CommandArgs<byte[], byte[]> args) {
		return SlipcaseCommand.read(type, output, args);
	}

	private static CommandArgs<byte[], byte[]> args() {
		return new CommandArgs<>(CODEC);
	}

}
