package dev.slipcase.redis.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that counts system calls per Redis command, from the kernel's own counters in
 * {@code /proc/<pid>/io} ({@code syscw}: write-like calls, {@code syscr}: read-like calls), for the
 * benchmark's JVM and for the Redis server it talks to (the process {@link #watchServer} names,
 * local to this machine). Secondary results per iteration: {@code ·syscalls.client.writes} and
 * {@code .reads}, {@code ·syscalls.server.writes} and {@code .reads}, each divided by the
 * iteration's operations times the commands each operation sends (option {@code commands}, 1 by
 * default):
 * <pre>java -jar benchmarks/target/benchmarks.jar TemplateBenchmark -prof dev.slipcase.redis.benchmark.SystemCallProfiler:commands=2</pre>
 * The JVM's counts include its other threads (wake-ups between caller threads and the event loop
 * are writes too): what the process costs the kernel, as {@code strace -c} would count it. Linux
 * only; elsewhere it reports nothing.
 */
public final class SystemCallProfiler implements InternalProfiler {

	private static volatile long serverPid = -1;

	private static volatile long @Nullable [] clientAtEnd;

	private static volatile long @Nullable [] serverAtEnd;

	private final int commandsPerOperation;

	private long @Nullable [] client;

	private long @Nullable [] server;

	public SystemCallProfiler() {
		this("");
	}

	public SystemCallProfiler(String options) {
		int commands = 1;
		for (String option : options.split(",")) {
			if (option.startsWith("commands=")) {
				commands = Integer.parseInt(option.substring("commands=".length()).trim());
			}
		}
		this.commandsPerOperation = commands;
	}

	/** Names the Redis server process whose system calls are counted from now on. */
	public static void watchServer(long pid) {
		serverPid = pid;
	}

	/**
	 * Takes the counts that end the current iteration now, before the trial's tear-down (which
	 * JMH runs inside the last iteration) shuts clients down and stops the server.
	 */
	public static void endOfMeasurement() {
		clientAtEnd = read(ProcessHandle.current().pid());
		serverAtEnd = (serverPid > 0) ? read(serverPid) : null;
	}

	@Override
	public String getDescription() {
		return "System calls per Redis command, client and server, from /proc/<pid>/io";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		clientAtEnd = null;
		serverAtEnd = null;
		this.client = read(ProcessHandle.current().pid());
		this.server = (serverPid > 0) ? read(serverPid) : null;
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
			IterationParams iterationParams, IterationResult result) {
		// every operation the window saw, those of the synchronisation phases around the measured ones too
		long commands = result.getMetadata().getAllOps() * this.commandsPerOperation;
		List<Result> results = new ArrayList<>();
		if (commands <= 0) {
			return results;
		}
		if (clientAtEnd == null) {
			endOfMeasurement();
		}
		add(results, "client", this.client, clientAtEnd, commands);
		add(results, "server", this.server, serverAtEnd, commands);
		return results;
	}

	private static void add(List<Result> results, String side, long @Nullable [] before, long @Nullable [] after,
			long commands) {
		if (before == null || after == null) {
			return;
		}
		results.add(new ScalarResult("·syscalls." + side + ".writes", (after[0] - before[0]) / (double) commands,
				"calls/cmd", AggregationPolicy.AVG));
		results.add(new ScalarResult("·syscalls." + side + ".reads", (after[1] - before[1]) / (double) commands,
				"calls/cmd", AggregationPolicy.AVG));
	}

	/** {@code syscw} and {@code syscr} of {@code pid}, or {@code null} when they cannot be read. */
	static long @Nullable [] read(long pid) {
		try {
			long writes = -1;
			long reads = -1;
			for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"))) {
				if (line.startsWith("syscw:")) {
					writes = Long.parseLong(line.substring(6).trim());
				}
				else if (line.startsWith("syscr:")) {
					reads = Long.parseLong(line.substring(6).trim());
				}
			}
			return (writes >= 0 && reads >= 0) ? new long[] { writes, reads } : null;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

}
