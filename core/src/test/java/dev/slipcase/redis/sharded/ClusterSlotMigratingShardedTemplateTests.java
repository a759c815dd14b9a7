package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bucket's slot is being migrated to another master while the template uses it, as
 * {@code redis-cli --cluster reshard} does it: the slot is {@code MIGRATING} on its master and
 * {@code IMPORTING} on the other, and the value's overflow key has moved while its bucket has not.
 * A read follows the old master's {@code ASK} without a script; a script on both keys (a write, an
 * expire, a delete) gets {@code TRYAGAIN} from the old master (it did not run); the overwrite of a
 * value in a field is sent again on the bucket alone and runs wherever the bucket is, following
 * {@code ASK}; anything else is sent again until the migration is done, then follows the
 * {@code MOVED}, and the call succeeds instead of failing. The client has the resources Slipcase's
 * starter gives Boot's: each MULTI block goes out as one command.
 */
class ClusterSlotMigratingShardedTemplateTests {

	private static final String LARGE = "v".repeat(300);

	private RedisCluster cluster;

	private RedisClusterClient client;

	private ShardedTemplates templates;

	private ClientResources resources;

	private ShardedTemplate<String> template;

	@BeforeEach
	void start() {
		this.cluster = RedisServers.startCluster();
		List<RedisURI> seeds = this.cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList();
		this.resources = WriteCoalescing.configure(ClientResources.builder()).build();
		this.client = RedisClusterClient.create(this.resources, seeds);
		this.templates = ShardedTemplates.create(this.client);
		this.template = this.templates.template(ShardedNamespace.builder("migrating").alias("g").keyPrefix("k:").build(),
				StringRedisSerializer.UTF_8);
	}

	@AfterEach
	void stop() {
		this.templates.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
		this.cluster.close();
	}

	@Test
	void anExpireOfAValueHalfMigratedIsAppliedOnceTheMigrationIsDone() throws Exception {
		this.template.set("k:1", LARGE);
		Migration migration = halfMigrate("k:1");
		CompletableFuture<Void> finished = migration.finishLater();
		assertThat(this.template.get("k:1")).as("a read follows ASK, no script").isEqualTo(LARGE);
		assertThat(this.template.expire("k:1", Duration.ofHours(1))).isTrue();
		finished.get(1, TimeUnit.MINUTES);
		assertThat(this.template.ttlMillis("k:1")).isPositive();
		assertThat(this.template.get("k:1")).isEqualTo(LARGE);
		assertThat(migration.tryAgains()).as("TRYAGAIN answers of the old master").isPositive();
	}

	@Test
	void aWriteToAValueHalfMigratedIsAppliedOnceTheMigrationIsDone() throws Exception {
		this.template.set("k:1", LARGE);
		Migration migration = halfMigrate("k:1");
		CompletableFuture<Void> finished = migration.finishLater();
		this.template.set("k:1", LARGE + "2");
		assertThat(this.template.delete("k:1")).isTrue();
		this.template.set("k:1", "small");
		finished.get(1, TimeUnit.MINUTES);
		assertThat(this.template.get("k:1")).isEqualTo("small");
		assertThat(migration.tryAgains()).as("TRYAGAIN answers of the old master").isPositive();
	}

	@Test
	void aSmallValueOverwrittenInABucketStillOnTheOldMasterIsWrittenThereWithoutWaitingForTheMigration()
			throws Exception {
		this.template.set("k:1", LARGE);
		this.template.set("k:2", "first");
		Migration migration = halfMigrate("k:1");
		this.template.set("k:2", "small");
		assertThat(this.template.get("k:2")).isEqualTo("small");
		assertThat(migration.tryAgains()).as("TRYAGAIN answers of the old master").isPositive();
		migration.finishLater().get(1, TimeUnit.MINUTES);
		assertThat(this.template.get("k:2")).isEqualTo("small");
		assertThat(this.template.get("k:1")).isEqualTo(LARGE);
	}

	@Test
	void aSmallValueOverwrittenInABucketAlreadyOnTheNewMasterFollowsAskWithoutWaitingForTheMigration()
			throws Exception {
		this.template.set("k:1", LARGE);
		this.template.set("k:2", "first");
		Migration migration = halfMigrate("k:1", true);
		this.template.set("k:2", "small");
		assertThat(this.template.get("k:2")).isEqualTo("small");
		migration.finishLater().get(1, TimeUnit.MINUTES);
		assertThat(this.template.get("k:2")).isEqualTo("small");
		assertThat(this.template.get("k:1")).isEqualTo(LARGE);
	}

	@Test
	void aMultiGetFollowsAskForABucketAlreadyOnTheNewMasterAndReadsTheOthersFromTheirNodes() throws Exception {
		this.template.set("k:1", LARGE);
		this.template.set("k:2", "first");
		Map<String, String> elsewhere = new LinkedHashMap<>();
		for (int id = 128; id < 128 * 12; id += 128) {
			elsewhere.put("k:" + id, "v" + id); // one key in each of 11 other buckets
		}
		this.template.multiSet(elsewhere);
		List<String> keys = new ArrayList<>(List.of("k:2", "k:1"));
		keys.addAll(elsewhere.keySet());
		List<String> expected = new ArrayList<>(List.of("first", LARGE));
		expected.addAll(elsewhere.values());
		assertThat(this.template.multiGet(keys)).containsExactlyElementsOf(expected); // the node connections are open
		Migration migration = halfMigrate("k:1", true);
		assertThat(this.template.multiGet(keys)).containsExactlyElementsOf(expected);
		migration.finishLater().get(1, TimeUnit.MINUTES);
		assertThat(this.template.multiGet(keys)).containsExactlyElementsOf(expected);
	}

	/**
	 * Starts moving the slot of {@code key}'s bucket to another master and moves its overflow key
	 * only, leaving the bucket behind.
	 */
	private Migration halfMigrate(String key) {
		return halfMigrate(key, false);
	}

	/**
	 * Starts moving the slot of {@code key}'s bucket to another master and moves one of its two
	 * keys: the bucket, or its overflow key.
	 */
	private Migration halfMigrate(String key, boolean bucketFirst) {
		String bucket = this.template.namespace().ownedKeyPrefix() + "n:0}";
		String slot = Integer.toString(SlotHash.getSlot(bucket));
		RedisServer from = this.cluster.nodes().stream()
			.filter((node) -> ((List<?>) node.command("CLUSTER", "GETKEYSINSLOT", slot, "10")).contains(bucket))
			.findFirst()
			.orElseThrow();
		RedisServer to = this.cluster.nodes().stream().filter((node) -> node != from).findFirst().orElseThrow();
		String toId = (String) to.command("CLUSTER", "MYID");
		to.command("CLUSTER", "SETSLOT", slot, "IMPORTING", (String) from.command("CLUSTER", "MYID"));
		from.command("CLUSTER", "SETSLOT", slot, "MIGRATING", toId);
		List<?> keys = (List<?>) from.command("CLUSTER", "GETKEYSINSLOT", slot, "10");
		assertThat(keys).as("the bucket and the overflow key of %s", key).hasSize(2);
		String overflow = keys.stream().map(String::valueOf).filter((name) -> !name.equals(bucket)).findFirst().orElseThrow();
		migrate(from, to, bucketFirst ? bucket : overflow);
		from.command("CONFIG", "RESETSTAT");
		return new Migration(from, to, toId, slot, bucketFirst ? overflow : bucket);
	}

	private static void migrate(RedisServer from, RedisServer to, String key) {
		assertThat(from.command("MIGRATE", to.endpoint().host(), Integer.toString(to.endpoint().port()), key, "0",
				"5000")).isEqualTo("OK");
	}

	/** A slot half moved; {@link #finishLater()} moves the rest and hands the slot over. */
	private final class Migration {

		private final RedisServer from;

		private final RedisServer to;

		private final String toId;

		private final String slot;

		private final String leftBehind;

		Migration(RedisServer from, RedisServer to, String toId, String slot, String leftBehind) {
			this.from = from;
			this.to = to;
			this.toId = toId;
			this.slot = slot;
			this.leftBehind = leftBehind;
		}

		/** After 300 ms: moves the key left behind and gives the slot to the new master on every node. */
		CompletableFuture<Void> finishLater() {
			return CompletableFuture.runAsync(() -> {
				try {
					Thread.sleep(300);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
				migrate(this.from, this.to, this.leftBehind);
				for (RedisServer node : ClusterSlotMigratingShardedTemplateTests.this.cluster.nodes()) {
					node.command("CLUSTER", "SETSLOT", this.slot, "NODE", this.toId);
				}
			});
		}

		/** How often the old master answered {@code TRYAGAIN} since the overflow key moved. */
		long tryAgains() {
			String stats = (String) this.from.command("INFO", "errorstats");
			return stats.lines()
				.filter((line) -> line.startsWith("errorstat_TRYAGAIN:"))
				.mapToLong((line) -> Long.parseLong(line.replaceAll(".*count=(\\d+).*", "$1")))
				.sum();
		}

	}

}
