package dev.slipcase.redis.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Three {@code redis-server --cluster-enabled yes} masters on free loopback ports, with
 * {@code replicas} replicas each, joined by {@code redis-cli --cluster create} into one cluster with
 * every slot covered and every replica in sync.
 */
final class LocalRedisCluster implements RedisCluster {

	static final int MASTERS = 3;

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisServer> nodes;

	private final Path cli;

	private LocalRedisCluster(List<RedisServer> nodes, Path cli) {
		this.nodes = List.copyOf(nodes);
		this.cli = cli;
	}

	static LocalRedisCluster start(Path server, Path cli) {
		return start(server, cli, 0);
	}

	static LocalRedisCluster start(Path server, Path cli, int replicas) {
		List<RedisServer> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < MASTERS * (1 + replicas); i++) {
				nodes.add(LocalRedisServer.start(server, FreePorts::withClusterBus,
						List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
								"--cluster-node-timeout", "5000")));
			}
			LocalRedisCluster cluster = new LocalRedisCluster(nodes, cli);
			cluster.create(replicas);
			cluster.awaitHealthy();
			return cluster;
		}
		catch (RuntimeException ex) {
			nodes.forEach(RedisServer::close);
			throw ex;
		}
	}

	private void create(int replicas) {
		List<String> command = new ArrayList<>(List.of(this.cli.toString(), "--cluster", "create"));
		this.nodes.forEach((node) -> command.add(node.endpoint().toString()));
		command.addAll(List.of("--cluster-replicas", Integer.toString(replicas), "--cluster-yes"));
		run(command);
	}

	@Override
	public void reshard(String from, String to, int slots, int keysPerMigrate) {
		RedisServer seed = this.nodes.stream().filter(RedisServer::isRunning).findFirst().orElseThrow();
		run(List.of(this.cli.toString(), "--cluster", "reshard", seed.endpoint().toString(), "--cluster-from", from,
				"--cluster-to", to, "--cluster-slots", Integer.toString(slots), "--cluster-pipeline",
				Integer.toString(keysPerMigrate), "--cluster-yes"));
		awaitHealthy();
	}

	private void run(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			process.getOutputStream().close();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalStateException("'" + String.join(" ", command) + "' failed: " + output);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run " + this.cli, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + String.join(" ", command), ex);
		}
	}

	/**
	 * Waits until every running node sees {@code cluster_state:ok} with all slots covered, and every
	 * running replica's link to its master is up.
	 */
	@Override
	public void awaitHealthy() {
		long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
		String last = "";
		while (System.nanoTime() < deadline) {
			boolean ready = true;
			for (RedisServer node : this.nodes) {
				if (!node.isRunning()) {
					continue;
				}
				String info = (String) node.command("CLUSTER", "INFO");
				last = node.endpoint() + ": " + info;
				ready &= "ok".equals(InfoField.read(info, "cluster_state"))
						&& "16384".equals(InfoField.read(info, "cluster_slots_ok"));
				String replication = (String) node.command("INFO", "replication");
				if ("slave".equals(InfoField.read(replication, "role"))) {
					ready &= "up".equals(InfoField.read(replication, "master_link_status"));
				}
			}
			if (ready) {
				return;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for the cluster", ex);
			}
		}
		throw new IllegalStateException("Cluster not ready within " + READY_TIMEOUT + "; last CLUSTER INFO " + last);
	}

	@Override
	public List<RedisServer> nodes() {
		return this.nodes;
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisServer::close);
	}

}
