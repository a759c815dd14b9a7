package dev.slipcase.redis.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.buffer.AllocatorType;
import dev.slipcase.redis.lettuce.WakeOnDemandNioIoHandler;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.jdk.JdkLimits;
import dev.slipcase.redis.serializer.jdk.SwitchOverPhase;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of Slipcase's serializers, {@code RedisTemplate} and caches, bound from
 * {@code slipcase.redis.*}.
 */
@ConfigurationProperties("slipcase.redis")
public class SlipcaseRedisProperties {

	/**
	 * Format values are written in when neither their entry under types nor a RedisFormat
	 * annotation chooses one.
	 */
	private FormatKind format = FormatKind.JSON;

	/**
	 * Value types allowed behind the Object serializers of the RedisTemplate and caches, by the
	 * short, stable id stored with each value; each entry names the class and may choose its format
	 * and compression.
	 */
	private final Map<String, Type> types = new LinkedHashMap<>();

	/**
	 * Packages whose classes are all allowed behind the Object serializers, each under its name
	 * relative to the package (Order, Order.Line). When empty, the application's packages are
	 * scanned for RedisFormat-annotated types only.
	 */
	private List<String> packages = new ArrayList<>();

	private final Buffer buffer = new Buffer();

	private final Compression compression = new Compression();

	private final RedisTemplate redisTemplate = new RedisTemplate();

	private final Cache cache = new Cache();

	private final Session session = new Session();

	private final WriteCoalescing writeCoalescing = new WriteCoalescing();

	private final Jdk jdk = new Jdk();

	public FormatKind getFormat() {
		return this.format;
	}

	public void setFormat(FormatKind format) {
		this.format = format;
	}

	public Map<String, Type> getTypes() {
		return this.types;
	}

	public List<String> getPackages() {
		return this.packages;
	}

	public void setPackages(List<String> packages) {
		this.packages = packages;
	}

	public Buffer getBuffer() {
		return this.buffer;
	}

	public Compression getCompression() {
		return this.compression;
	}

	public RedisTemplate getRedisTemplate() {
		return this.redisTemplate;
	}

	public Cache getCache() {
		return this.cache;
	}

	public Session getSession() {
		return this.session;
	}

	public WriteCoalescing getWriteCoalescing() {
		return this.writeCoalescing;
	}

	public Jdk getJdk() {
		return this.jdk;
	}

	/** Scratch buffers the serializers encode and decompress through. */
	public static class Buffer {

		/**
		 * Kind of Netty allocator scratch buffers come from.
		 */
		private AllocatorType allocator = AllocatorType.ADAPTIVE;

		/**
		 * Whether scratch buffers are direct (off-heap) rather than heap buffers.
		 */
		private boolean direct = true;

		public AllocatorType getAllocator() {
			return this.allocator;
		}

		public void setAllocator(AllocatorType allocator) {
			this.allocator = allocator;
		}

		public boolean isDirect() {
			return this.direct;
		}

		public void setDirect(boolean direct) {
			this.direct = direct;
		}

	}

	/** Compression of stored values. */
	public static class Compression {

		/**
		 * Compressor new values are written with when their type does not choose one: none, lz4,
		 * zstd or gzip. Values are read with every available compressor whatever this says.
		 */
		private String algorithm = "none";

		/**
		 * Smallest encoded value that is compressed; smaller values are stored as they are.
		 */
		private DataSize minSize = DataSize.ofBytes(128);

		/**
		 * Compression level of the chosen algorithm (zstd: -7 to 22, gzip: 1 to 9, lz4: 1 to 17 for
		 * LZ4 HC). The algorithm's default when not set.
		 */
		private @Nullable Integer level;

		/**
		 * Largest decompressed value accepted; bigger values are refused rather than inflated.
		 */
		private DataSize maxDecompressedSize = DataSize.ofMegabytes(32);

		/**
		 * Zstd dictionaries (classpath: or file: locations). Values are written with the first and
		 * read with any of them, so keep an old dictionary listed after rolling out a new one.
		 */
		private List<Resource> zstdDictionaries = new ArrayList<>();

		public String getAlgorithm() {
			return this.algorithm;
		}

		public void setAlgorithm(String algorithm) {
			this.algorithm = algorithm;
		}

		public DataSize getMinSize() {
			return this.minSize;
		}

		public void setMinSize(DataSize minSize) {
			this.minSize = minSize;
		}

		public @Nullable Integer getLevel() {
			return this.level;
		}

		public void setLevel(@Nullable Integer level) {
			this.level = level;
		}

		public DataSize getMaxDecompressedSize() {
			return this.maxDecompressedSize;
		}

		public void setMaxDecompressedSize(DataSize maxDecompressedSize) {
			this.maxDecompressedSize = maxDecompressedSize;
		}

		public List<Resource> getZstdDictionaries() {
			return this.zstdDictionaries;
		}

		public void setZstdDictionaries(List<Resource> zstdDictionaries) {
			this.zstdDictionaries = zstdDictionaries;
		}

	}

	/** One allowed value type and how its values are written. */
	public static class Type {

		/**
		 * Fully qualified class name of the type.
		 */
		private @Nullable Class<?> type;

		/**
		 * Format this type's values are written in; its RedisFormat annotation or the default
		 * format when not set.
		 */
		private @Nullable FormatKind format;

		/**
		 * Compressor this type's values are written with (none, lz4, zstd or gzip); its
		 * annotation or the default algorithm when not set.
		 */
		private @Nullable String compression;

		public @Nullable Class<?> getType() {
			return this.type;
		}

		public void setType(@Nullable Class<?> type) {
			this.type = type;
		}

		public @Nullable FormatKind getFormat() {
			return this.format;
		}

		public void setFormat(@Nullable FormatKind format) {
			this.format = format;
		}

		public @Nullable String getCompression() {
			return this.compression;
		}

		public void setCompression(@Nullable String compression) {
			this.compression = compression;
		}

	}

	/** One socket write for the commands concurrent callers issue on a connection. */
	public static class WriteCoalescing {

		/**
		 * Whether the Lettuce connections of Boot's client resources (Boot's connection factory,
		 * so its RedisTemplate, caches and sessions too) and Slipcase's templates put off each
		 * flush to the end of their event loop's turn, so that commands issued meanwhile leave in
		 * one socket write.
		 */
		private boolean enabled = true;

		/**
		 * The longest an event loop of Slipcase's (those of Boot's connections too, where Lettuce
		 * uses NIO) polls for a reply or a caller's command before it blocks once it has run out of
		 * work: one that comes meanwhile costs no sleep and wake-up. The poll adapts up to this:
		 * it grows while work comes soon after the loop blocks and stops while work comes further
		 * apart. Spends up to that long of a core each time a loop runs out of work; 0 to block at
		 * once, at most 1ms (checked at start-up, even with coalescing off).
		 */
		private Duration busyPoll = WakeOnDemandNioIoHandler.DEFAULT_BUSY_POLL;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getBusyPoll() {
			return this.busyPoll;
		}

		public void setBusyPoll(Duration busyPoll) {
			this.busyPoll = busyPoll;
		}

	}

	/** Boot's own redisTemplate bean. */
	public static class RedisTemplate {

		/**
		 * Whether Boot's auto-configured redisTemplate writes String keys as UTF-8 and values with
		 * Slipcase's serializers instead of JDK serialization. Off by default, because keys and
		 * values that template wrote are already in Redis in JDK form and would no longer be found
		 * or read. A redisTemplate bean of the application's own is never changed.
		 */
		private boolean enabled = false;

		/**
		 * Whether Boot's redisTemplate, when switched over, keeps writing keys and hash keys
		 * JDK-serialized, as it wrote them before, so that the entries it wrote before stay found
		 * and instances without Slipcase address the same keys. Needed for a switch-over other
		 * than done.
		 */
		private boolean jdkKeys = false;

		/**
		 * Where Boot's redisTemplate, when switched over, stands in a fleet's switch from JDK
		 * values: write-jdk writes JDK values that instances without Slipcase read, and reads
		 * both; read-jdk writes Slipcase's format and still reads JDK values; done reads no JDK
		 * value.
		 */
		private SwitchOverPhase switchOver = SwitchOverPhase.DONE;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isJdkKeys() {
			return this.jdkKeys;
		}

		public void setJdkKeys(boolean jdkKeys) {
			this.jdkKeys = jdkKeys;
		}

		public SwitchOverPhase getSwitchOver() {
			return this.switchOver;
		}

		public void setSwitchOver(SwitchOverPhase switchOver) {
			this.switchOver = switchOver;
		}

	}

	/** Spring Cache values in Redis. */
	public static class Cache {

		/**
		 * Whether Boot's Redis cache manager stores values with Slipcase's serializers.
		 */
		private boolean enabled = true;

		/**
		 * Whether a cached value that cannot be read (such as one JDK-serialized before the
		 * switch) is logged and treated as a miss rather than thrown.
		 */
		private boolean unreadableAsMiss = true;

		/**
		 * Where caches stand in a fleet's switch from JDK serialization: write-jdk writes JDK
		 * values that instances without Slipcase read, and reads both; read-jdk writes Slipcase's
		 * format and still reads JDK values; done reads no JDK value (one is a miss).
		 */
		private SwitchOverPhase switchOver = SwitchOverPhase.DONE;

		/**
		 * Per-cache settings, by cache name.
		 */
		private final Map<String, CacheSpec> caches = new LinkedHashMap<>();

		/**
		 * Near tier: a local copy of values kept correct by Redis' invalidations.
		 */
		private final Near near = new Near();

		public Near getNear() {
			return this.near;
		}

		public SwitchOverPhase getSwitchOver() {
			return this.switchOver;
		}

		public void setSwitchOver(SwitchOverPhase switchOver) {
			this.switchOver = switchOver;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isUnreadableAsMiss() {
			return this.unreadableAsMiss;
		}

		public void setUnreadableAsMiss(boolean unreadableAsMiss) {
			this.unreadableAsMiss = unreadableAsMiss;
		}

		public Map<String, CacheSpec> getCaches() {
			return this.caches;
		}

	}

	/** Settings of the near tier of Spring caches. */
	public static class Near extends NearTierProperties {

		/**
		 * Caches with a near tier; when empty, every cache, including those created on first use.
		 */
		private List<String> cacheNames = new ArrayList<>();

		public List<String> getCacheNames() {
			return this.cacheNames;
		}

		public void setCacheNames(List<String> cacheNames) {
			this.cacheNames = cacheNames;
		}

	}

	/** Settings of one cache. */
	public static class CacheSpec {

		/**
		 * Time to live of this cache's entries; spring.cache.redis.time-to-live when not set.
		 */
		private @Nullable Duration ttl;

		/**
		 * Format this cache's values are written in, whatever their type chooses.
		 */
		private @Nullable FormatKind format;

		/**
		 * Compressor this cache's values are written with (none, lz4, zstd or gzip), whatever
		 * their type chooses.
		 */
		private @Nullable String compression;

		public @Nullable Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(@Nullable Duration ttl) {
			this.ttl = ttl;
		}

		public @Nullable FormatKind getFormat() {
			return this.format;
		}

		public void setFormat(@Nullable FormatKind format) {
			this.format = format;
		}

		public @Nullable String getCompression() {
			return this.compression;
		}

		public void setCompression(@Nullable String compression) {
			this.compression = compression;
		}

	}

	/** Spring Session's values in Redis. */
	public static class Session {

		/**
		 * Whether Spring Session stores session values with Slipcase's serializers (when
		 * spring-session-data-redis is present).
		 */
		private boolean enabled = true;

		/**
		 * Format session values are written in: JSON with type information, readable in
		 * redis-cli; Fory, binary, for the allowed types and the session types of Spring
		 * Security's form, basic, remember-me and similar logins; or Protostuff for the allowed
		 * types.
		 */
		private FormatKind format = FormatKind.JSON;

		/**
		 * Compressor session values are written with: none, lz4, zstd or gzip.
		 */
		private String compression = "none";

		/**
		 * Where sessions stand in a fleet's switch from JDK serialization: write-jdk writes JDK
		 * values that instances without Slipcase read, and reads both; read-jdk writes Slipcase's
		 * format, still reads JDK values, and writes a session read with any of them again whole
		 * on its next save; done reads no JDK value (its session is absent).
		 */
		private SwitchOverPhase switchOver = SwitchOverPhase.DONE;

		public SwitchOverPhase getSwitchOver() {
			return this.switchOver;
		}

		public void setSwitchOver(SwitchOverPhase switchOver) {
			this.switchOver = switchOver;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public FormatKind getFormat() {
			return this.format;
		}

		public void setFormat(FormatKind format) {
			this.format = format;
		}

		public String getCompression() {
			return this.compression;
		}

		public void setCompression(String compression) {
			this.compression = compression;
		}

	}

	/** Reading JDK-serialized values while caches or sessions switch over. */
	public static class Jdk {

		/**
		 * Deepest nesting of objects a JDK-serialized value may have.
		 */
		private int maxDepth = JdkLimits.DEFAULTS.maxDepth();

		/**
		 * Most objects and back-references a JDK-serialized value may hold.
		 */
		private long maxReferences = JdkLimits.DEFAULTS.maxReferences();

		/**
		 * Largest JDK-serialized value that is read.
		 */
		private DataSize maxSize = DataSize.ofBytes(JdkLimits.DEFAULTS.maxBytes());

		/**
		 * Fully qualified names of further classes a JDK-serialized value may name, beyond the
		 * cached types, the session types, what their fields declare and the JDK's value types.
		 */
		private List<String> allowedClasses = new ArrayList<>();

		public int getMaxDepth() {
			return this.maxDepth;
		}

		public void setMaxDepth(int maxDepth) {
			this.maxDepth = maxDepth;
		}

		public long getMaxReferences() {
			return this.maxReferences;
		}

		public void setMaxReferences(long maxReferences) {
			this.maxReferences = maxReferences;
		}

		public DataSize getMaxSize() {
			return this.maxSize;
		}

		public void setMaxSize(DataSize maxSize) {
			this.maxSize = maxSize;
		}

		public List<String> getAllowedClasses() {
			return this.allowedClasses;
		}

		public void setAllowedClasses(List<String> allowedClasses) {
			this.allowedClasses = allowedClasses;
		}

	}

}
