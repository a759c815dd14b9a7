package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.test.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract run against one standalone server: connects a client (on the resources Slipcase's
 * starter gives Boot's client), a {@code String} connection for inspecting Redis, and the templates
 * under test before the class, and closes them after it.
 * Subclasses say which server.
 */
abstract class StandaloneShardedTemplateContract extends ShardedTemplateContract {

	RedisServer server;

	RedisClient client;

	private StatefulRedisConnection<String, String> connection;

	private ShardedTemplates templates;

	private ClientResources resources;

	/** Starts (or finds the shared) server to run against; called once, before the class. */
	abstract RedisServer startServer();

	/** Whether the server belongs to this class, to be stopped after it. */
	abstract boolean ownsServer();

	@BeforeAll
	void connect() {
		this.server = startServer();
		// the resources Slipcase's starter gives Boot's client: blocks go out as one command each
		this.resources = WriteCoalescing.configure(ClientResources.builder()).build();
		this.client = RedisClient.create(this.resources, this.server.endpoint().uri());
		this.connection = this.client.connect();
		this.templates = ShardedTemplates.create(this.client);
	}

	@AfterAll
	void disconnect() {
		this.templates.close();
		this.connection.close();
		this.client.shutdown();
		this.resources.shutdown();
		if (ownsServer()) {
			this.server.close();
		}
	}

	@Test
	void readsRunNoScriptOnlyHgetHmgetAndGet() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		Map<String, String> values = new LinkedHashMap<>();
		for (int id = 0; id < 300; id += 3) {
			values.put(key(template, id), (id % 30 == 0) ? "big".repeat(100) : "v" + id);
		}
		template.multiSet(values);
		List<String> keys = new ArrayList<>(values.keySet());
		keys.add(key(template, 1));
		redis().configResetstat();
		assertThat(template.get(key(template, 0))).isEqualTo(values.get(key(template, 0)));
		assertThat(template.get(key(template, 3))).isEqualTo("v3");
		assertThat(template.get(key(template, 1))).isNull();
		List<String> read = template.multiGet(keys);
		assertThat(read.subList(0, values.size())).containsExactlyElementsOf(values.values());
		assertThat(read.get(values.size())).isNull();
		String stats = redis().info("commandstats");
		assertThat(stats).doesNotContain("cmdstat_evalsha", "cmdstat_eval:", "cmdstat_fcall")
			.contains("cmdstat_hget:", "cmdstat_hmget:", "cmdstat_get:");
	}

	@Test
	void plainWritesOfNumericKeysRunNoScriptButOneTransaction() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		String big = "big".repeat(100);
		template.set(key(template, 2), big);
		redis().configResetstat();
		template.set(key(template, 1), "small");
		template.set(key(template, 2), "shrunk");
		template.multiSet(Map.of(key(template, 3), big, key(template, 400), "far", key(template, 4), "near"));
		String stats = redis().info("commandstats");
		assertThat(stats).doesNotContain("cmdstat_evalsha", "cmdstat_eval:", "cmdstat_fcall")
			.contains("cmdstat_multi:calls=3,", "cmdstat_exec:calls=3,");
		assertThat(template.multiGet(List.of(key(template, 1), key(template, 2), key(template, 3), key(template, 400),
				key(template, 4)))).containsExactly("small", "shrunk", big, "far", "near");
		assertThat(overflowKeys(template)).containsExactly(template.namespace().ownedKeyPrefix() + "n:0}:3");
	}

	@Test
	void writesOfStringIdsRunNoScriptOnceAScriptSaidTheirBucketsCount() {
		ShardedTemplate<String> template = template(
				namespace().strategy(ShardingStrategy.HASHED).bucketCount(4).build(), STRINGS);
		ShardedTemplate<Long> counters = template(
				namespace().strategy(ShardingStrategy.HASHED).bucketCount(2).build(), LONGS);
		redis().configResetstat();
		// a bucket this instance knows nothing of takes the script, whose reply says its count
		for (int i = 0; i < 80; i++) {
			template.set(key(template, "seed" + i), "v");
			counters.incrBy(key(counters, "seed" + i), 1);
		}
		assertThat(redis().info("commandstats")).contains("cmdstat_evalsha:");
		redis().configResetstat();
		template.set(key(template, "alice"), "a");
		template.set(key(template, "alice"), "b");
		template.multiSet(Map.of(key(template, "bob"), "c", key(template, "carol"), "big".repeat(100)));
		assertThat(counters.incrBy(key(counters, "visits"), 5)).isEqualTo(5);
		assertThat(counters.incrBy(key(counters, "visits"), 2)).isEqualTo(7);
		String stats = redis().info("commandstats");
		assertThat(stats).doesNotContain("cmdstat_evalsha", "cmdstat_eval:", "cmdstat_fcall")
			.contains("cmdstat_multi:calls=3,", "cmdstat_exec:calls=3,", "cmdstat_hincrby:calls=2,", "cmdstat_hlen:");
		assertThat(template.multiGet(List.of(key(template, "alice"), key(template, "bob"), key(template, "carol"))))
			.containsExactly("b", "c", "big".repeat(100));
	}

	@Test
	void ttlWritesRunNoScriptWhereTheServerExpiresHashFields() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		if (!template.limits().fieldExpiry()) {
			return;
		}
		String big = "big".repeat(100);
		redis().configResetstat();
		template.set(key(template, 1), "small", Duration.ofMinutes(5));
		template.set(key(template, 2), big, Duration.ofMinutes(5));
		String stats = redis().info("commandstats");
		assertThat(stats).doesNotContain("cmdstat_evalsha", "cmdstat_eval:").contains("cmdstat_exec:");
		if (template.limits().setWithExpiry()) {
			assertThat(stats).contains("cmdstat_hsetex:");
		}
		// keeping the TTL reads it where the value lives, which only the script can do in one step
		template.setKeepTtl(key(template, 1), "kept");
		assertThat(template.get(key(template, 1))).isEqualTo("kept");
		assertThat(template.ttlMillis(key(template, 1))).isBetween(1L, 300_000L);
		assertThat(template.ttlMillis(key(template, 2))).isBetween(1L, 300_000L);
		assertThat(template.get(key(template, 2))).isEqualTo(big);
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		assertThat(redis().hpttl(bucket, "2")).as("the marker expires with its overflow key").allMatch((ttl) -> ttl > 0);
		template.set(key(template, 1), "plain");
		assertThat(template.ttlMillis(key(template, 1))).isEqualTo(-1);
	}

	@Override
	ShardedTemplates templates() {
		return this.templates;
	}

	@Override
	ShardedTemplates newTemplates() {
		return ShardedTemplates.create(this.client);
	}

	@Override
	RedisClusterCommands<String, String> redis() {
		return this.connection.sync();
	}

}
