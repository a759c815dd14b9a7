package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.slipcase.redis.test.DurableRedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.fault.FaultProxy;
import dev.slipcase.redis.test.history.FaultyRun;
import dev.slipcase.redis.test.history.FaultyRun.Fault;
import dev.slipcase.redis.test.history.History;
import dev.slipcase.redis.test.history.HistoryChecker;
import dev.slipcase.redis.test.history.Operation;
import dev.slipcase.redis.test.history.Operation.Kind;
import dev.slipcase.redis.test.history.Outcome;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker on {@link ValueTemplate}'s plain keys: four threads of random sets,
 * conditional sets, gets, deletes, expires and increments through a {@link FaultProxy} while a
 * nemesis injects faults (a crash and restart of the server from its append-only file among them), then {@link HistoryChecker} judges every key. With writes sent at most
 * once, no write lands after its caller was told it failed and no increment is applied twice. A
 * short run (10 s) is part of the build; {@code SLIPCASE_HISTORY_SECONDS} and
 * {@code SLIPCASE_HISTORY_SEED} as for the sharded history.
 */
class ValueTemplateHistoryTests {

	private static final String PADDING = "y".repeat(3_000);

	@Test
	void aHistoryUnderFaultsHasNoAnomaly() throws Exception {
		long seed = FaultyRun.setting("SLIPCASE_HISTORY_SEED", System.nanoTime());
		long seconds = FaultyRun.setting("SLIPCASE_HISTORY_SECONDS", 10);
		try (DurableRedisServer redis = RedisServers.startDurable(RedisServers.serverBinary());
				FaultProxy proxy = FaultProxy.start(redis.endpoint())) {
			RedisClient client = RedisClient.create();
			try (ValueTemplate<String> template = ValueTemplate.create(client,
					RedisURI.builder(RedisURI.create(proxy.endpoint().uri())).withTimeout(Duration.ofSeconds(1)).build(),
					Utf8TestFormat.INSTANCE)) {
				History history = new History((failure) -> Outcome.INFO);
				Map<Fault, Integer> faults = FaultyRun.run(proxy, redis::crashAndRestart, 4, Duration.ofSeconds(seconds), seed,
						(process, sequence, random) -> step(template, history, process, sequence, random));
				Thread.sleep(1_000);
				for (int k = 0; k < 40; k++) {
					String key = "v:" + k;
					history.run(-1, Kind.GET, key, null, () -> template.get(key));
				}
				for (int k = 0; k < 16; k++) {
					String key = "vc:" + k;
					history.run(-1, Kind.GET, key, null, () -> template.get(key));
				}
				List<Operation> operations = history.operations();
				List<String> anomalies = HistoryChecker.check(operations);
				long unknown = operations.stream().filter((operation) -> operation.outcome() == Outcome.INFO).count();
				System.out.printf("value template history seed %d: %d operations (%d unknown), faults %s, %d anomalies%n",
						seed, operations.size(), unknown, faults, anomalies.size());
				assertThat(anomalies).as("anomalies of seed %d (replay with SLIPCASE_HISTORY_SEED=%d)", seed, seed)
					.isEmpty();
				assertThat(faults.values().stream().mapToInt(Integer::intValue).sum()).as("faults injected").isPositive();
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static void step(ValueTemplate<String> template, History history, int process, int sequence,
			Random random) {
		if (random.nextInt(8) == 0) {
			String key = "vc:" + random.nextInt(16);
			if (random.nextBoolean()) {
				history.run(process, Kind.INCREMENT, key, "1", () -> Long.toString(template.incrementBy(key, 1)));
			}
			else {
				history.run(process, Kind.GET, key, null, () -> template.get(key));
			}
			return;
		}
		String key = "v:" + random.nextInt(40);
		String value = "p" + process + "-" + sequence + ((random.nextInt(4) == 0) ? PADDING : "");
		int choice = random.nextInt(100);
		if (choice < 40) {
			history.run(process, Kind.GET, key, null, () -> template.get(key));
		}
		else if (choice < 65) {
			history.run(process, Kind.SET, key, value, () -> {
				template.set(key, value);
				return null;
			});
		}
		else if (choice < 75) {
			history.run(process, Kind.SET_IF_ABSENT, key, value,
					() -> Boolean.toString(template.setIfAbsent(key, value, null)));
		}
		else if (choice < 90) {
			history.run(process, Kind.DELETE, key, null, () -> Long.toString(template.delete(key)));
		}
		else {
			history.run(process, Kind.EXPIRE, key, null, () -> Boolean.toString(template.expire(key, Duration.ofHours(1))));
		}
	}

}
