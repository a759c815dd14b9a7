package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.ConnectionHolder;
import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.lettuce.TransactionLane;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.Assert;

/**
 * Creates {@link ShardedTemplate}s over one Lettuce connection, standalone or cluster. Probes the
 * server once: the listpack limits ({@code CONFIG GET hash-max-listpack-entries}/{@code -value},
 * the {@code ziplist} names on Redis 6.2) and whether it has {@code HPEXPIRE}. Never changes the
 * server's configuration.
 * <p>
 * Created from a client ({@link #create(AbstractRedisClient)}, e.g. the native client of Spring's
 * {@code LettuceConnectionFactory}), it opens a {@code byte[]} connection of its own and closes it
 * in {@link #close()}; created from a connection ({@link #create(StatefulConnection)}), the caller
 * keeps ownership of it. Thread-safe; templates share the connection, which Lettuce pipelines.
 */
public final class ShardedTemplates implements AutoCloseable {

	/** How long creating waits for the first connection, whose own timeout applies from then on. */
	private static final Duration CONNECT_TIMEOUT = RedisURI.DEFAULT_TIMEOUT_DURATION;

	private static final SecureRandom SECRETS = new SecureRandom();

	private final ConnectionHolder<byte[], byte[]> connections;

	/** Where plain writes run as MULTI/EXEC blocks; {@code null} on a borrowed connection. */
	private final @Nullable TransactionLane transactions;

	private final CommandChannel<byte[], byte[]> redis;

	private final String version;

	private final boolean fieldExpiry;

	private final boolean setWithExpiry;

	private final @Nullable Integer serverMaxEntries;

	private final @Nullable Integer serverMaxValueBytes;

	private final @Nullable String configProblem;

	/** What this process saw of each namespace's hashed buckets, shared by its templates: by alias and sizes. */
	private final Map<String, BucketFill> fills = new ConcurrentHashMap<>();

	private ShardedTemplates(ConnectionHolder<byte[], byte[]> connections) {
		this.connections = connections;
		ConnectionHolder<byte[], byte[]> separate = connections.separate();
		this.transactions = (separate != null) ? new TransactionLane(separate) : null;
		StatefulConnection<byte[], byte[]> connection = CommandChannel.await(connections.get(), CONNECT_TIMEOUT,
				"connect", null);
		this.redis = new CommandChannel<>(connections, connections.defaultDatabase(), connection.getTimeout());
		this.version = probeVersion();
		// by behaviour, not by command name: an engine may have the commands and still convert a
		// small hash to hashtable when one of its fields gets a TTL (Valkey 9, valkey-io/valkey#2618)
		this.fieldExpiry = hasCommands("hpexpire", "hpttl", "hpersist") && fieldTtlKeepsHashCompact();
		this.setWithExpiry = this.fieldExpiry && hasCommands("hsetex");
		Integer entries = null;
		Integer value = null;
		String problem = null;
		try {
			// one name per CONFIG GET: Redis 6.2 takes a single parameter, and knows only the ziplist names
			Map<String, String> config = new HashMap<>();
			for (String name : List.of("hash-max-listpack-entries", "hash-max-listpack-value", "hash-max-ziplist-entries",
					"hash-max-ziplist-value")) {
				this.redis.call(BinaryCommands.configGet(name), "read", name)
					.forEach((key, setting) -> config.put(text(key), text(setting)));
			}
			entries = firstInt(config, "hash-max-listpack-entries", "hash-max-ziplist-entries");
			value = firstInt(config, "hash-max-listpack-value", "hash-max-ziplist-value");
			if (entries == null || value == null) {
				problem = "CONFIG GET returned no hash-max-listpack-entries/-value (nor the ziplist names): " + config;
			}
		}
		catch (RuntimeException ex) {
			problem = "CONFIG GET failed (" + ex.getMessage() + ")";
		}
		this.serverMaxEntries = entries;
		this.serverMaxValueBytes = value;
		this.configProblem = problem;
	}

	/**
	 * Opens a {@code byte[]} connection of its own from a {@link RedisClient} or
	 * {@link RedisClusterClient} (what {@code LettuceConnectionFactory.getNativeClient()} returns) and
	 * probes the server. {@link #close()} closes that connection, never the client.
	 * @param client the client, never {@code null}
	 */
	public static ShardedTemplates create(AbstractRedisClient client) {
		Assert.notNull(client, "client must not be null");
		return create(() -> client);
	}

	/**
	 * Opens a {@code byte[]} connection of its own from the current client of {@code clients}, and
	 * again from its then-current client whenever that connection was closed for good: give it
	 * {@code connectionFactory::getRequiredNativeClient} and the templates keep working after Spring's
	 * {@code LettuceConnectionFactory} is stopped and started (which shuts its client down and makes a
	 * new one). Probes the server. {@link #close()} closes the connection, never a client.
	 * @param clients supplies a {@link RedisClient} or {@link RedisClusterClient}, never {@code null}
	 * @throws org.springframework.data.redis.RedisConnectionFailureException when Redis cannot be reached
	 */
	public static ShardedTemplates create(Supplier<? extends AbstractRedisClient> clients) {
		Assert.notNull(clients, "clients must not be null");
		boolean cluster = Connectors.isCluster(Objects.requireNonNull(clients.get(), "client must not be null"));
		ConnectionHolder<byte[], byte[]> connections = ConnectionHolder.opening(
				Connectors.following(clients, ByteArrayCodec.INSTANCE, 0), ByteArrayCodec.INSTANCE, cluster, 0,
				CONNECT_TIMEOUT);
		try {
			return new ShardedTemplates(connections);
		}
		catch (RuntimeException ex) {
			connections.close();
			throw ex;
		}
	}

	/**
	 * Uses a {@code byte[]} connection the caller owns (standalone or cluster) and probes the server.
	 * @param connection the connection, never {@code null}; {@link #close()} leaves it open
	 */
	public static ShardedTemplates create(StatefulConnection<byte[], byte[]> connection) {
		Assert.notNull(connection, "connection must not be null");
		return new ShardedTemplates(ConnectionHolder.borrowing(connection, ByteArrayCodec.INSTANCE));
	}

	/**
	 * Creates the template of one namespace: resolves its sizes from the namespace and the server,
	 * then stores its layout in Redis on first use or checks it against the stored one.
	 * @param namespace the namespace, never {@code null}
	 * @param serializer turns values to bytes and back, never {@code null}; numbers must be decimal
	 * text for {@code incrBy} to work on them
	 * @throws IllegalStateException when the server's limits cannot be read and the namespace does
	 * not set them, or when the bucket size exceeds the server's entry limit
	 * @throws ShardLayoutMismatchException when the stored layout differs from the configured one
	 */
	public <V> ShardedTemplate<V> template(ShardedNamespace namespace, RedisSerializer<V> serializer) {
		Assert.notNull(namespace, "namespace must not be null");
		Assert.notNull(serializer, "serializer must not be null");
		ServerLimits limits = limits(namespace);
		int target = Math.max(1, (int) Math.floor(limits.maxEntries() * namespace.fillFactor()));
		Integer explicitSize = namespace.bucketSize();
		int bucketSize = (explicitSize != null) ? explicitSize : target;
		if (namespace.strategy() == ShardingStrategy.NUMERIC && bucketSize > limits.maxEntries()) {
			throw new IllegalStateException("Namespace '" + namespace.name() + "': bucket size " + bucketSize
					+ " exceeds the server's hash-max-listpack-entries " + limits.maxEntries()
					+ "; full buckets would leave the compact encoding. Lower bucketSize.");
		}
		int bucketCount;
		if (namespace.bucketCount() != null) {
			bucketCount = namespace.bucketCount();
		}
		else if (namespace.expectedKeys() != null) {
			bucketCount = (int) Math.min(Integer.MAX_VALUE, (namespace.expectedKeys() + target - 1) / target);
		}
		else {
			bucketCount = ShardedNamespace.DEFAULT_BUCKET_COUNT;
		}
		ShardLayout wanted = new ShardLayout(namespace.strategy(), bucketSize, bucketCount, ShardLayout.SIPHASH_24,
				ShardLayout.VERSION, namespace.name(), namespace.keyPrefix());
		ShardLayout layout = storeOrCheckLayout(namespace, wanted, limits);
		KeyPlacement placement;
		try {
			placement = new KeyPlacement(namespace, layout, limits.maxValueBytes(),
					layout.hash().equals(ShardLayout.SIPHASH_24) ? storeOrReadSecret(namespace) : null);
		}
		catch (IllegalArgumentException ex) {
			throw new ShardLayoutMismatchException(ex.getMessage());
		}
		// the serializer's observer: an application context's meters when the context made it
		SlipcaseObserver observer = (serializer instanceof SlipcaseRedisSerializer<?> slipcase)
				? slipcase.format().observer() : SlipcaseObservers.global();
		boolean keyed = layout.hash().equals(ShardLayout.SIPHASH_24);
		BucketFill fill = this.fills.computeIfAbsent(
				namespace.alias() + " " + layout.bucketCount() + " " + limits.maxEntries() + " " + keyed,
				(ignored) -> BucketFill.of(layout.bucketCount(), limits.maxEntries(), keyed));
		return new ShardedTemplate<>(
				new BucketStore(this.redis, this.transactions, namespace, placement, limits, fill, observer), serializer);
	}

	/** The server's limits as this namespace sees them (its overrides first). */
	ServerLimits limits(ShardedNamespace namespace) {
		Integer entries = (namespace.maxEntries() != null) ? namespace.maxEntries() : this.serverMaxEntries;
		Integer value = (namespace.maxValueBytes() != null) ? namespace.maxValueBytes() : this.serverMaxValueBytes;
		if (entries == null || value == null) {
			throw new IllegalStateException("Namespace '" + namespace.name() + "': cannot size buckets: "
					+ this.configProblem + ". Set maxEntries and maxValueBytes to the server's "
					+ "hash-max-listpack-entries and hash-max-listpack-value (managed Redis often blocks CONFIG).");
		}
		if (entries < 1 || value < 1) {
			throw new IllegalStateException("Namespace '" + namespace.name() + "': the server keeps no hash compact "
					+ "(hash-max-listpack-entries " + entries + ", hash-max-listpack-value " + value
					+ "), so sharding would save nothing");
		}
		return new ServerLimits(entries, value, this.fieldExpiry, this.setWithExpiry, this.version);
	}

	/**
	 * Whether the server expires hash fields and keeps a small hash compact when it does
	 * ({@code HPEXPIRE}/{@code HPTTL}/{@code HPERSIST}, Redis 7.4+; not Valkey 9, which converts the
	 * hash): found by trying it once, when the templates are created.
	 */
	public boolean supportsFieldExpiry() {
		return this.fieldExpiry;
	}

	/** The server's {@code redis_version}, or {@code "unknown"}. */
	public String serverVersion() {
		return this.version;
	}

	/** Closes the connection when this instance opened it. */
	@Override
	public void close() {
		this.connections.close();
		if (this.transactions != null) {
			this.transactions.close();
		}
	}

	/**
	 * The namespace's placement secret: {@link SipHash24#KEY_BYTES} random bytes stored beside its
	 * layout by the first instance that asks (set if absent), read by every other; never changed, as
	 * every key's bucket depends on it.
	 */
	private byte[] storeOrReadSecret(ShardedNamespace namespace) {
		byte[] key = KeyPlacement.secretKey(namespace);
		String keyName = new String(key, StandardCharsets.UTF_8);
		byte[] made = new byte[SipHash24.KEY_BYTES];
		SECRETS.nextBytes(made);
		byte[] secret = storeIfAbsentAndRead(key, made,
				"store or read the placement secret of namespace '" + namespace.name() + "' at");
		if (secret == null || secret.length != SipHash24.KEY_BYTES) {
			throw new IllegalStateException("Namespace '" + namespace.name() + "': the placement secret at " + keyName
					+ ((secret == null) ? " vanished right after it was written" : " is " + secret.length
							+ " bytes, not " + SipHash24.KEY_BYTES)
					+ "; without it no key of the namespace can be found. Is something changing keys under "
					+ namespace.bucketPrefix() + "?");
		}
		return secret;
	}

	private ShardLayout storeOrCheckLayout(ShardedNamespace namespace, ShardLayout wanted, ServerLimits limits) {
		byte[] key = KeyPlacement.layoutKey(namespace);
		String keyName = new String(key, StandardCharsets.UTF_8);
		byte[] storedBytes = storeIfAbsentAndRead(key, wanted.encode().getBytes(StandardCharsets.UTF_8),
				"store or read the layout of namespace '" + namespace.name() + "' at");
		if (storedBytes == null) {
			throw new IllegalStateException("Namespace '" + namespace.name() + "': the layout key " + keyName
					+ " vanished right after it was written; is something deleting keys under "
					+ namespace.bucketPrefix() + "?");
		}
		ShardLayout existing = ShardLayout.parse(new String(storedBytes, StandardCharsets.UTF_8));
		boolean hashed = namespace.strategy() == ShardingStrategy.HASHED;
		if (existing.equals(wanted) || (hashed && sameHashed(existing, wanted))) {
			return existing;
		}
		if (!existing.namespace().equals(wanted.namespace())) {
			throw new ShardLayoutMismatchException("Namespace '" + namespace.name() + "': its alias '" + namespace.alias()
					+ "' already holds the buckets of namespace '" + existing.namespace() + "' (layout at " + keyName
					+ "). Aliases are one-to-one: give this namespace an alias of its own.");
		}
		if (existing.version() < ShardLayout.VERSION) {
			throw new ShardLayoutMismatchException("Namespace '" + namespace.name() + "': the buckets at " + keyName
					+ " were written by layout version " + existing.version() + ", which kept no overflow markers in "
					+ "the buckets; this version (" + ShardLayout.VERSION + ") would not find the values in overflow "
					+ "keys. Give the namespace a new alias and migrate its values (read them with the old version).");
		}
		// a stored layout keeps its hash: one stored before keyed placement goes on with fnv1a32 until
		// its keys are migrated to a new alias
		boolean sameKind = existing.strategy() == wanted.strategy() && existing.version() == wanted.version()
				&& existing.keyPrefix().equals(wanted.keyPrefix());
		boolean sizeAgrees = hashed || namespace.bucketSize() == null || existing.bucketSize() == wanted.bucketSize();
		boolean countAgrees = namespace.bucketCount() == null || existing.bucketCount() == wanted.bucketCount();
		boolean fits = hashed || existing.bucketSize() <= limits.maxEntries();
		if (sameKind && sizeAgrees && countAgrees && fits) {
			// only derived sizes differ (the server's limits or expectedKeys changed): keep the stored
			// layout rather than move every key
			return existing;
		}
		throw new ShardLayoutMismatchException("Namespace '" + namespace.name() + "': the layout stored at " + keyName
				+ " is [" + existing.encode() + "] but the configuration asks for [" + wanted.encode()
				+ "]. Starting would look for existing keys in the wrong buckets. Configure the stored layout "
				+ "(keyPrefix '" + existing.keyPrefix() + "', strategy " + existing.strategy() + ", bucketSize "
				+ existing.bucketSize() + ", bucketCount " + existing.bucketCount() + "), or use a new alias and migrate.");
	}

	/**
	 * Sets {@code key} to {@code value} unless it exists, and reads it in the same round trip: what
	 * the first instance to ask stored. {@code null} only when something deleted it meanwhile.
	 * @param action what is done, for a failure's message, followed by the key's name
	 */
	private byte @Nullable [] storeIfAbsentAndRead(byte[] key, byte[] value, String action) {
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		CompletableFuture<String> stored = pipeline.submit(BinaryCommands.setIfAbsent(key, value));
		CompletableFuture<byte @Nullable []> read = pipeline.submit(BinaryCommands.get(key));
		pipeline.send();
		this.redis.awaitAll(List.of(stored, read), action, new String(key, StandardCharsets.UTF_8));
		return read.join();
	}

	private static boolean sameHashed(ShardLayout a, ShardLayout b) {
		return a.strategy() == b.strategy() && a.bucketCount() == b.bucketCount() && a.version() == b.version()
				&& a.namespace().equals(b.namespace()) && a.keyPrefix().equals(b.keyPrefix());
	}

	private String probeVersion() {
		try {
			String info = this.redis.call(BinaryCommands.info("server"), "read INFO server", null);
			for (String line : info.split("\r?\n")) {
				if (line.startsWith("redis_version:")) {
					return line.substring("redis_version:".length()).trim();
				}
			}
		}
		catch (RuntimeException ex) {
			// INFO blocked: the version is only reported, never relied on
		}
		return "unknown";
	}

	/**
	 * Whether a small hash stays compact when one of its fields gets a TTL, tried on a scratch key
	 * (a random name under {@code slipcase:probe:}, expiring within a minute, deleted at once): Redis
	 * 7.4+ keeps it a listpack, Valkey 9 converts it to a hashtable. A probe that fails (an ACL that
	 * refuses the scratch write, say) counts as no, and the templates keep TTL'd values out of
	 * buckets: "never flips a bucket" holds on every engine.
	 */
	private boolean fieldTtlKeepsHashCompact() {
		byte[] probe = ("slipcase:probe:field-ttl:" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
		byte[] field = { 'f' };
		// one round trip; the DEL goes out whatever the commands before it answer
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<?>> replies = new ArrayList<>();
		replies.add(pipeline.submit(BinaryCommands.hset(probe, field, new byte[] { 'v' })));
		replies.add(pipeline.submit(BinaryCommands.pexpire(probe, 60_000)));
		replies.add(pipeline.submit(BinaryCommands.hpexpire(probe, 60_000, field)));
		CompletableFuture<@Nullable String> encoding = pipeline.submit(BinaryCommands.objectEncoding(probe));
		replies.add(encoding);
		replies.add(pipeline.submit(BinaryCommands.del(probe)));
		pipeline.send();
		try {
			this.redis.awaitAll(replies, "probe field TTLs at", null);
			String found = encoding.join();
			return found != null && (found.startsWith("listpack") || found.equals("ziplist"));
		}
		catch (RuntimeException ex) {
			// an ACL that refuses the scratch write, say; the key expires within a minute
			return false;
		}
	}

	/** Whether the server knows every one of {@code names}: asked once, when the templates are created. */
	private boolean hasCommands(String... names) {
		try {
			List<Object> info = this.redis.call(BinaryCommands.commandInfo(names), "look up " + String.join(", ", names),
					null);
			return info.size() == names.length
					&& info.stream().allMatch((entry) -> entry instanceof List<?> list && !list.isEmpty());
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private static @Nullable Integer firstInt(Map<String, String> config, String... names) {
		for (String name : names) {
			String value = config.get(name);
			if (value != null && !value.isBlank()) {
				return Integer.valueOf(value.trim());
			}
		}
		return null;
	}

}
