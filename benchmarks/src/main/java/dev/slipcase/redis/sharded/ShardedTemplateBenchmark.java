package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.data.redis.serializer.GenericToStringSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

/**
 * Single get, set and increment, and 100-key multi-get and multi-set, through the sharded template
 * ({@code store=sharded}, {@code sharded-slipcase}) side by side with plain {@code GET}, {@code SET},
 * {@code INCR}, {@code MGET} and {@code MSET}, raw ({@code store=plain}) and through
 * {@code ValueTemplate} ({@code store=template}), on Lettuce connections from the same client, on
 * the resources Slipcase's starter gives Boot's client ({@link WriteCoalescing#configure}),
 * each against a fresh Redis of its own (7.0 or 8.0) holding {@code keyCount} keys of 20-byte
 * values (10,000; {@code -p keyCount=1000000} for the large case) and 1,000 counters, under numeric
 * ids or ({@code -p ids=string}) string ids.
 * <pre>java -jar benchmarks/target/benchmarks.jar ShardedTemplateBenchmark -f 1 -wi 2 -w 1s -i 3 -r 1s</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ShardedTemplateBenchmark {


	private static final int BATCH = 100;

	private static final int BATCHES = 64;

	private static final int COUNTERS = 1000;

	/**
	 * {@code plain}: raw Lettuce; {@code template}: {@code ValueTemplate} with Slipcase's UTF-8
	 * format; {@code sharded}: the sharded template with Spring's string serializers;
	 * {@code sharded-slipcase}: with Slipcase's.
	 */
	@Param({ "plain", "template", "sharded", "sharded-slipcase" })
	public String store;

	/** The keys each server holds: 10,000 in the suite; {@code -p keyCount=1000000} for the large case. */
	@Param({ "10000" })
	public int keyCount;

	/** The server: Redis 7.0 from the PATH, or Redis 8.0. */
	@Param({ "7.0", "8.0" })
	public String redis;

	/**
	 * The ids: {@code numeric} ({@code user:123}, numeric buckets), or {@code string}
	 * ({@code user:u123}, hashed buckets sized for {@code keyCount} with {@code expectedKeys}).
	 */
	@Param({ "numeric" })
	public String ids;

	private RedisServer server;

	private ClientResources resources;

	private RedisClient client;

	private StatefulRedisConnection<byte[], byte[]> connection;

	private Store target;

	private String[] keys;

	private String[] counters;

	private List<List<String>> batches;

	private String value;

	private int next;

	@Setup(Level.Trial)
	public void setUp() {
		this.server = "8.0".equals(this.redis) ? RedisServers.startRedis80() : RedisServers.start();
		this.server.flushAll();
		this.resources = WriteCoalescing.configure(ClientResources.builder()).build();
		this.client = RedisClient.create(this.resources, this.server.endpoint().uri());
		this.connection = this.client.connect(ByteArrayCodec.INSTANCE);
		this.target = switch (this.store) {
			case "plain" -> new PlainStore(this.connection.sync());
			case "template" -> new TemplateStore(ValueTemplate.create(this.client, RedisURI.create(this.server.endpoint().uri()),
					Utf8StringFormat.INSTANCE));
			case "sharded" -> new ShardedStore(ShardedTemplates.create(this.client), StringRedisSerializer.UTF_8,
					new GenericToStringSerializer<>(Long.class), this.keyCount);
			case "sharded-slipcase" -> new ShardedStore(ShardedTemplates.create(this.client), SlipcaseSerializers.string(),
					SlipcaseSerializers.longs(), this.keyCount);
			default -> throw new IllegalArgumentException("Unknown store " + this.store);
		};
		SplittableRandom random = new SplittableRandom(7);
		this.value = MemoryCase.randomText(random, 20);
		String idPrefix = switch (this.ids) {
			case "numeric" -> "";
			case "string" -> "u";
			default -> throw new IllegalArgumentException("Unknown ids " + this.ids);
		};
		this.keys = new String[this.keyCount];
		Map<String, String> chunk = new LinkedHashMap<>();
		for (int i = 0; i < this.keyCount; i++) {
			this.keys[i] = "user:" + idPrefix + i;
			chunk.put(this.keys[i], MemoryCase.randomText(random, 20));
			if (chunk.size() == 1000) {
				this.target.multiSet(chunk);
				chunk.clear();
			}
		}
		this.counters = new String[COUNTERS];
		for (int i = 0; i < COUNTERS; i++) {
			this.counters[i] = "counter:" + idPrefix + i;
		}
		this.target.loadCounters(this.counters);
		this.batches = new ArrayList<>();
		for (int b = 0; b < BATCHES; b++) {
			List<String> batch = new ArrayList<>(BATCH);
			for (int i = 0; i < BATCH; i++) {
				batch.add(this.keys[random.nextInt(this.keyCount)]);
			}
			this.batches.add(batch);
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.target.close();
		this.connection.close();
		this.client.shutdown();
		this.resources.shutdown();
		this.server.close();
	}

	private int next() {
		this.next = (this.next + 7919) % this.keyCount;
		return this.next;
	}

	@Benchmark
	public Object get() {
		return this.target.get(this.keys[next()]);
	}

	@Benchmark
	public Object set() {
		return this.target.set(this.keys[next()], this.value);
	}

	@Benchmark
	public Object multiGet100() {
		return this.target.multiGet(this.batches.get(next() % BATCHES));
	}

	@Benchmark
	public Object multiSet100() {
		Map<String, String> values = new LinkedHashMap<>();
		for (String key : this.batches.get(next() % BATCHES)) {
			values.put(key, this.value);
		}
		this.target.multiSet(values);
		return values;
	}

	@Benchmark
	public Object increment() {
		return this.target.increment(this.counters[next() % COUNTERS]);
	}

	/** What the benchmark compares: plain keys or the sharded template. */
	private interface Store extends AutoCloseable {

		Object get(String key);

		Object set(String key, String value);

		Object multiGet(List<String> keys);

		Object increment(String key);

		/** Stores 0 under each key, for {@link #increment}. */
		void loadCounters(String[] keys);

		void multiSet(Map<String, String> values);

		@Override
		void close();

	}

	/** Plain {@code GET}/{@code SET}/{@code MGET}/{@code MSET} of top-level keys. */
	private static final class PlainStore implements Store {

		private final RedisCommands<byte[], byte[]> commands;

		PlainStore(RedisCommands<byte[], byte[]> commands) {
			this.commands = commands;
		}

		@Override
		public Object get(String key) {
			return this.commands.get(bytes(key));
		}

		@Override
		public Object set(String key, String value) {
			return this.commands.set(bytes(key), bytes(value));
		}

		@Override
		public Object multiGet(List<String> keys) {
			byte[][] raw = new byte[keys.size()][];
			for (int i = 0; i < raw.length; i++) {
				raw[i] = bytes(keys.get(i));
			}
			return this.commands.mget(raw);
		}

		@Override
		public Object increment(String key) {
			return this.commands.incr(bytes(key));
		}

		@Override
		public void loadCounters(String[] keys) {
			Map<byte[], byte[]> raw = new LinkedHashMap<>();
			for (String key : keys) {
				raw.put(bytes(key), bytes("0"));
			}
			this.commands.mset(raw);
		}

		@Override
		public void multiSet(Map<String, String> values) {
			Map<byte[], byte[]> raw = new LinkedHashMap<>();
			values.forEach((key, value) -> raw.put(bytes(key), bytes(value)));
			this.commands.mset(raw);
		}

		@Override
		public void close() {
		}

		private static byte[] bytes(String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}

	}

	/** {@code ValueTemplate}, values as UTF-8 strings: {@code GET}, {@code SET}, {@code INCRBY}, {@code MGET}, {@code MSET}. */
	private static final class TemplateStore implements Store {

		private final ValueTemplate<String> template;

		TemplateStore(ValueTemplate<String> template) {
			this.template = template;
		}

		@Override
		public Object get(String key) {
			return this.template.get(key);
		}

		@Override
		public Object set(String key, String value) {
			this.template.set(key, value);
			return this.template;
		}

		@Override
		public Object multiGet(List<String> keys) {
			return this.template.mget(keys);
		}

		@Override
		public Object increment(String key) {
			return this.template.incrementBy(key, 1);
		}

		@Override
		public void loadCounters(String[] keys) {
			Map<String, String> zeros = new LinkedHashMap<>();
			for (String key : keys) {
				zeros.put(key, "0");
			}
			this.template.mset(zeros);
		}

		@Override
		public void multiSet(Map<String, String> values) {
			this.template.mset(values);
		}

		@Override
		public void close() {
			this.template.close();
		}

	}

	/** The sharded template, values as UTF-8 strings and counters as decimal numbers. */
	private static final class ShardedStore implements Store {

		private final ShardedTemplates templates;

		private final ShardedTemplate<String> template;

		private final ShardedTemplate<Long> counters;

		/** Namespaces whose hashed buckets are sized for {@code keys} string ids and 1,000 counters. */
		ShardedStore(ShardedTemplates templates, RedisSerializer<String> strings, RedisSerializer<Long> numbers, int keys) {
			this.templates = templates;
			this.counters = templates.template(ShardedNamespace.builder("counters").alias("c").keyPrefix("counter:")
				.expectedKeys(COUNTERS)
				.build(), numbers);
			this.template = templates.template(
					ShardedNamespace.builder("bench").alias("b").keyPrefix("user:").expectedKeys(keys).build(), strings);
		}

		@Override
		public Object get(String key) {
			return this.template.get(key);
		}

		@Override
		public Object set(String key, String value) {
			this.template.set(key, value);
			return this.template;
		}

		@Override
		public Object multiGet(List<String> keys) {
			return this.template.multiGet(keys);
		}

		@Override
		public void multiSet(Map<String, String> values) {
			this.template.multiSet(values);
		}

		@Override
		public Object increment(String key) {
			return this.counters.incrBy(key, 1);
		}

		@Override
		public void loadCounters(String[] keys) {
			Map<String, Long> zeros = new LinkedHashMap<>();
			for (String key : keys) {
				zeros.put(key, 0L);
			}
			this.counters.multiSet(zeros);
		}

		@Override
		public void close() {
			this.templates.close();
		}

	}

}
