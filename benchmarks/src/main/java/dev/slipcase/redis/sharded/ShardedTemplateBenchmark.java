package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.data.redis.serializer.StringRedisSerializer;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

/**
 * Single get and set, and a 100-key multi-get, through the sharded template side by side with plain
 * {@code GET}, {@code SET} and {@code MGET} over the same Lettuce connection, against a fresh Redis
 * of its own holding 10,000 keys of 20-byte values both ways.
 * <pre>java -jar benchmarks/target/benchmarks.jar ShardedTemplateBenchmark -f 1 -wi 2 -w 1s -i 3 -r 1s</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ShardedTemplateBenchmark {

	private static final int KEYS = 10_000;

	private static final int BATCH = 100;

	private static final int BATCHES = 64;

	private RedisServer server;

	private RedisClient client;

	private StatefulRedisConnection<byte[], byte[]> connection;

	private RedisCommands<byte[], byte[]> plain;

	private ShardedTemplates templates;

	private ShardedTemplate<String> template;

	private String[] keys;

	private byte[][] plainKeys;

	private List<List<String>> batches;

	private List<byte[][]> plainBatches;

	private String value;

	private byte[] valueBytes;

	private int next;

	@Setup(Level.Trial)
	public void setUp() {
		this.server = RedisServers.start();
		this.server.flushAll();
		this.client = RedisClient.create(this.server.endpoint().uri());
		this.connection = this.client.connect(ByteArrayCodec.INSTANCE);
		this.plain = this.connection.sync();
		this.templates = ShardedTemplates.create(this.connection);
		this.template = this.templates.template(ShardedNamespace.builder("bench").alias("b").keyPrefix("user:").build(),
				StringRedisSerializer.UTF_8);
		SplittableRandom random = new SplittableRandom(7);
		this.value = MemoryCase.randomText(random, 20);
		this.valueBytes = this.value.getBytes(StandardCharsets.UTF_8);
		this.keys = new String[KEYS];
		this.plainKeys = new byte[KEYS][];
		Map<String, String> sharded = new LinkedHashMap<>();
		Map<byte[], byte[]> plainValues = new LinkedHashMap<>();
		for (int i = 0; i < KEYS; i++) {
			this.keys[i] = "user:" + i;
			this.plainKeys[i] = this.keys[i].getBytes(StandardCharsets.UTF_8);
			String text = MemoryCase.randomText(random, 20);
			sharded.put(this.keys[i], text);
			plainValues.put(this.plainKeys[i], text.getBytes(StandardCharsets.UTF_8));
			if (sharded.size() == 1000) {
				this.template.multiSet(sharded);
				this.plain.mset(plainValues);
				sharded.clear();
				plainValues.clear();
			}
		}
		this.batches = new ArrayList<>();
		this.plainBatches = new ArrayList<>();
		for (int b = 0; b < BATCHES; b++) {
			List<String> batch = new ArrayList<>(BATCH);
			byte[][] plainBatch = new byte[BATCH][];
			for (int i = 0; i < BATCH; i++) {
				int index = random.nextInt(KEYS);
				batch.add(this.keys[index]);
				plainBatch[i] = this.plainKeys[index];
			}
			this.batches.add(batch);
			this.plainBatches.add(plainBatch);
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.templates.close();
		this.connection.close();
		this.client.shutdown();
		this.server.close();
	}

	private int next() {
		this.next = (this.next + 7919) % KEYS;
		return this.next;
	}

	@Benchmark
	public byte[] plainGet() {
		return this.plain.get(this.plainKeys[next()]);
	}

	@Benchmark
	public String shardedGet() {
		return this.template.get(this.keys[next()]);
	}

	@Benchmark
	public String plainSet() {
		return this.plain.set(this.plainKeys[next()], this.valueBytes);
	}

	@Benchmark
	public ShardedTemplate<String> shardedSet() {
		this.template.set(this.keys[next()], this.value);
		return this.template;
	}

	@Benchmark
	public List<KeyValue<byte[], byte[]>> plainMget100() {
		return this.plain.mget(this.plainBatches.get(next() % BATCHES));
	}

	@Benchmark
	public List<String> shardedMultiGet100() {
		return this.template.multiGet(this.batches.get(next() % BATCHES));
	}

}
