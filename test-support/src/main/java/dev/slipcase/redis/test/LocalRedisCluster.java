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
 * Three {@code redis-server --cluster-enabled yes} processes on free loopback ports, joined by
 * {@code redis-cli --cluster create} into one cluster with every slot covered.
 */
final class LocalRedisCluster implements RedisCluster {

	static final int MASTERS = 3;

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisServer> nodes;

	private LocalRedisCluster(List<RedisServer> nodes) {
		this.nodes = List.copyOf(nodes);
	}

	static LocalRedisCluster start(Path server, Path cli) {
		List<RedisServer> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < MASTERS; i++) {
				nodes.add(LocalRedisServer.start(server, FreePorts::withClusterBus,
						List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
								"--cluster-node-timeout", "5000")));
			}
			LocalRedisCluster cluster = new LocalRedisCluster(nodes);
			cluster.create(cli);
			cluster.awaitReady();
			return cluster;
		}
		catch (RuntimeException ex) {
			nodes.forEach(RedisServer::close);
			throw ex;
		}
	}

	private void create(Path cli) {
		List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
		this.nodes.forEach((node) -> command.add(node.endpoint().toString()));
		command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
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
			throw new UncheckedIOException("Could not run " + cli, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while creating the cluster", ex);
		}
	}

	/** Waits until every node sees {@code cluster_state:ok} with all slots covered. */
	private void awaitReady() {
		long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
		String last = "";
		while (System.nanoTime() < deadline) {
			boolean ready = true;
			for (RedisServer node : this.nodes) {
				String info = (String) node.command("CLUSTER", "INFO");
				last = node.endpoint() + ": " + info;
				ready &= "ok".equals(InfoField.read(info, "cluster_state"))
						&& "16384".equals(InfoField.read(info, "cluster_slots_ok"));
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
