package dev.slipcase.redis.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that measures what each Redis command costs the two processes, from the kernel's
 * own counters, for the benchmark's JVM and for the Redis server it talks to (the process
 * {@link #watchServer} names, local to this machine): system calls ({@code /proc/<pid>/io}:
 * {@code syscw} write-like, {@code syscr} read-like), CPU time ({@code utime + stime} of
 * {@code /proc/<pid>/stat}, in ticks of 10 ms, so read it over iterations of a second or more)
 * and context switches (voluntary and not, of the threads alive at both ends of the iteration).
 * Secondary results per iteration, each divided by the iteration's operations times the commands
 * each operation sends (option {@code commands}, 1 by default):
 * {@code ·syscalls.client.writes} and {@code .reads}, {@code ·syscalls.server.writes} and
 * {@code .reads}, {@code ·cpu.client} and {@code ·cpu.server} (µs per command), of which the
 * kernel's ({@code stime}) {@code ·cpu.client.kernel} and {@code ·cpu.server.kernel},
 * {@code ·switches.client} and {@code ·switches.server}, and {@code ·cpu.client.eventloops} (µs per
 * command), the CPU time of the client's Netty event loops alone (threads named
 * {@code …EventLoop…}, read from the JVM's per-thread CPU clock), where a loop's busy poll shows:
 * <pre>java -jar benchmarks/target/benchmarks.jar TemplateBenchmark -prof dev.slipcase.redis.benchmark.ProcessCostProfiler:commands=2</pre>
 * The JVM's counts include its other threads (wake-ups between caller threads and the event loop
 * are writes too, and a caller parked for its reply is a switch): what the process costs the
 * kernel, as {@code strace -c} and {@code pidstat -w} would count it. The {@code /proc} figures are
 * Linux only; elsewhere only the event loops' CPU time is reported.
 */
public final class ProcessCostProfiler implements InternalProfiler {

	/** Client write system calls per command. */
	public static final String CLIENT_WRITES = "·syscalls.client.writes";

	/** Server write system calls per command. */
	public static final String SERVER_WRITES = "·syscalls.server.writes";

	/** Client CPU time per command, µs. */
	public static final String CLIENT_CPU = "·cpu.client";

	/** Server CPU time per command, µs. */
	public static final String SERVER_CPU = "·cpu.server";

	/** Client CPU time per command spent in the kernel (system time), µs. */
	public static final String CLIENT_KERNEL_CPU = "·cpu.client.kernel";

	/** Server CPU time per command spent in the kernel (system time), µs. */
	public static final String SERVER_KERNEL_CPU = "·cpu.server.kernel";

	/** Client context switches per command. */
	public static final String CLIENT_SWITCHES = "·switches.client";

	/** CPU time per command of the client's event-loop threads, µs. */
	public static final String CLIENT_EVENT_LOOP_CPU = "·cpu.client.eventloops";

	/** The name of every result this profiler reports, in the order it reports them. */
	public static final List<String> METRICS = List.of(CLIENT_WRITES, "·syscalls.client.reads", CLIENT_CPU,
			CLIENT_KERNEL_CPU, CLIENT_SWITCHES, SERVER_WRITES, "·syscalls.server.reads", SERVER_CPU, SERVER_KERNEL_CPU,
			"·switches.server", CLIENT_EVENT_LOOP_CPU);

	/** Linux's {@code USER_HZ}: {@code /proc} counts CPU time in hundredths of a second. */
	private static final double MICROS_PER_TICK = 10_000;

	private static volatile long serverPid = -1;

	private static volatile @Nullable Counts clientAtEnd;

	private static volatile @Nullable Counts serverAtEnd;

	private static volatile @Nullable Map<Long, Long> eventLoopsAtEnd;

	private final int commandsPerOperation;

	private @Nullable Counts client;

	private @Nullable Counts server;

	private Map<Long, Long> eventLoops = Map.of();

	public ProcessCostProfiler() {
		this("");
	}

	public ProcessCostProfiler(String options) {
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
		eventLoopsAtEnd = eventLoopCpuNanos();
	}

	@Override
	public String getDescription() {
		return "System calls, CPU time and context switches per Redis command, client and server, from /proc/<pid>";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		clientAtEnd = null;
		serverAtEnd = null;
		eventLoopsAtEnd = null;
		this.eventLoops = eventLoopCpuNanos();
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
		Map<Long, Long> loopsAtEnd = eventLoopsAtEnd;
		if (loopsAtEnd != null && !loopsAtEnd.isEmpty()) {
			results.add(new ScalarResult(CLIENT_EVENT_LOOP_CPU,
					sinceForThreadsAliveAtBoth(this.eventLoops, loopsAtEnd) / 1_000.0 / commands, "us/cmd", AggregationPolicy.AVG));
		}
		return results;
	}

	/**
	 * The CPU time of each live Netty event-loop thread of this JVM (Lettuce's, Slipcase's: named
	 * {@code …EventLoop…}), ns, by thread id; empty where the JVM does not measure threads' CPU time.
	 */
	static Map<Long, Long> eventLoopCpuNanos() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		Map<Long, Long> cpu = new HashMap<>();
		if (!threads.isThreadCpuTimeSupported() || !threads.isThreadCpuTimeEnabled()) {
			return cpu;
		}
		// without stack traces: getAllStackTraces would stop the JVM at a safepoint to walk them
		for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
			if (thread != null && thread.getThreadName().contains("EventLoop")) {
				long nanos = threads.getThreadCpuTime(thread.getThreadId());
				if (nanos >= 0) {
					cpu.put(thread.getThreadId(), nanos);
				}
			}
		}
		return cpu;
	}

	/**
	 * The sum, over the threads alive at both moments, of each one's count in {@code after} less
	 * its count in {@code before}: a thread that started or ended in between (a connection
	 * factory's, say) takes its count with it, so only those give a difference that means anything.
	 */
	static <K> long sinceForThreadsAliveAtBoth(Map<K, Long> before, Map<K, Long> after) {
		long total = 0;
		for (Map.Entry<K, Long> thread : after.entrySet()) {
			Long earlier = before.get(thread.getKey());
			if (earlier != null) {
				total += thread.getValue() - earlier;
			}
		}
		return total;
	}

	private static void add(List<Result> results, String side, @Nullable Counts before, @Nullable Counts after,
			long commands) {
		if (before == null || after == null) {
			return;
		}
		results.add(new ScalarResult("·syscalls." + side + ".writes", (after.writes() - before.writes()) / (double) commands,
				"calls/cmd", AggregationPolicy.AVG));
		results.add(new ScalarResult("·syscalls." + side + ".reads", (after.reads() - before.reads()) / (double) commands,
				"calls/cmd", AggregationPolicy.AVG));
		if (before.cpuTicks() >= 0 && after.cpuTicks() >= 0) {
			results.add(new ScalarResult("·cpu." + side,
					(after.cpuTicks() - before.cpuTicks()) * MICROS_PER_TICK / (double) commands, "us/cmd",
					AggregationPolicy.AVG));
			results.add(new ScalarResult("·cpu." + side + ".kernel",
					(after.kernelTicks() - before.kernelTicks()) * MICROS_PER_TICK / (double) commands, "us/cmd",
					AggregationPolicy.AVG));
		}
		results.add(new ScalarResult("·switches." + side, after.switchesSince(before) / (double) commands,
				"switches/cmd", AggregationPolicy.AVG));
	}

	/**
	 * The counts of {@code pid}: {@code syscw} and {@code syscr}, CPU ticks (user and system, and
	 * system alone, {@code /proc/<pid>/stat}, -1 when unreadable) and each thread's context switches (voluntary
	 * and not); {@code null} when the system calls cannot be read.
	 */
	static @Nullable Counts read(long pid) {
		Path process = Path.of("/proc", Long.toString(pid));
		try {
			long writes = -1;
			long reads = -1;
			for (String line : Files.readAllLines(process.resolve("io"))) {
				if (line.startsWith("syscw:")) {
					writes = Long.parseLong(line.substring(6).trim());
				}
				else if (line.startsWith("syscr:")) {
					reads = Long.parseLong(line.substring(6).trim());
				}
			}
			return (writes >= 0 && reads >= 0) ? counts(writes, reads, process) : null;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The counts with the CPU time of the whole process: utime and stime, fields 14 and 15 of its
	 * {@code stat} (after the command in parentheses), -1 each when unreadable.
	 */
	private static Counts counts(long writes, long reads, Path process) {
		long user = -1;
		long kernel = -1;
		try {
			String stat = Files.readString(process.resolve("stat"));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			// fields[0] is field 3 (state): utime is field 14, stime field 15
			user = Long.parseLong(fields[11]);
			kernel = Long.parseLong(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			// no CPU time to report
		}
		return new Counts(writes, reads, (user >= 0 && kernel >= 0) ? user + kernel : -1, kernel,
				switches(process));
	}

	/** Context switches of each live thread of the process, by thread id. */
	private static Map<String, Long> switches(Path process) {
		Map<String, Long> switches = new HashMap<>();
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process.resolve("task"))) {
			for (Path task : tasks) {
				try {
					long total = 0;
					for (String line : Files.readAllLines(task.resolve("status"))) {
						if (line.startsWith("voluntary_ctxt_switches:")
								|| line.startsWith("nonvoluntary_ctxt_switches:")) {
							total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
						}
					}
					switches.put(task.getFileName().toString(), total);
				}
				catch (IOException ex) {
					// the thread ended while we listed them: it is not alive at both ends
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// no per-thread counts: no switches to report
		}
		return switches;
	}

	/**
	 * What the kernel counted for one process at one moment.
	 * @param writes write-like system calls
	 * @param reads read-like system calls
	 * @param cpuTicks user and system CPU time in ticks, or -1
	 * @param kernelTicks system CPU time in ticks, or -1
	 * @param switchesByThread context switches of each live thread, by thread id
	 */
	record Counts(long writes, long reads, long cpuTicks, long kernelTicks, Map<String, Long> switchesByThread) {

		/** The context switches since {@code before} of the threads alive at both moments. */
		long switchesSince(Counts before) {
			return sinceForThreadsAliveAtBoth(before.switchesByThread, this.switchesByThread);
		}

	}

}
