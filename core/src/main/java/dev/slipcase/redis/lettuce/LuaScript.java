package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import org.springframework.util.Assert;

/**
 * The source of a Lua script and its SHA-1, run with {@code EVALSHA} and, when the server does
 * not have it cached, with {@code EVAL} (see {@link Pipeline#script}). A script call reaches Redis at most
 * once: one whose reply was lost with its connection fails rather than run again (see
 * {@link SlipcaseCommand#write}). What the script's
 * {@code KEYS} and {@code ARGV} mean belongs with its source, in the class that declares it.
 * Immutable and thread-safe.
 */
public final class LuaScript {

	private final String source;

	private final byte[] sourceBytes;

	private final String sha;

	private LuaScript(String source) {
		this.source = source;
		this.sourceBytes = source.getBytes(StandardCharsets.UTF_8);
		this.sha = sha1(this.sourceBytes);
	}

	/**
	 * A script of {@code source}.
	 * @param source the Lua source, never {@code null}
	 */
	public static LuaScript of(String source) {
		Assert.notNull(source, "source must not be null");
		return new LuaScript(source);
	}

	/** The Lua source. */
	public String source() {
		return this.source;
	}

	/** The SHA-1 of the source, in lower-case hex, as {@code EVALSHA} takes it. */
	public String sha() {
		return this.sha;
	}

	/** {@code EVALSHA sha numkeys keys... argv...}. */
	<K, V, T> SlipcaseCommand<K, V, T> evalsha(RedisCodec<K, V> codec, CommandOutput<K, V, T> output, List<K> keys,
			Consumer<CommandArgs<K, V>> argv) {
		return command(CommandType.EVALSHA, output, new CommandArgs<>(codec).add(this.sha), keys, argv);
	}

	/** {@code EVAL source numkeys keys... argv...}. */
	<K, V, T> SlipcaseCommand<K, V, T> eval(RedisCodec<K, V> codec, CommandOutput<K, V, T> output, List<K> keys,
			Consumer<CommandArgs<K, V>> argv) {
		return command(CommandType.EVAL, output, new CommandArgs<>(codec).add(this.sourceBytes), keys, argv);
	}

	private static <K, V, T> SlipcaseCommand<K, V, T> command(CommandType type, CommandOutput<K, V, T> output,
			CommandArgs<K, V> args, List<K> keys, Consumer<CommandArgs<K, V>> argv) {
		args.add(keys.size()).addKeys(keys);
		argv.accept(args);
		return SlipcaseCommand.write(type, output, args);
	}

	@Override
	public String toString() {
		return "LuaScript[" + this.sha + "] " + this.source.lines().findFirst().orElse("");
	}

	private static String sha1(byte[] data) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(data));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-1 is required of every JVM", ex);
		}
	}

}
