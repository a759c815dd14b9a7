package dev.slipcase.redis.benchmark;

import java.util.Collection;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code TemplateBenchmark} briefly with {@link ProcessCostProfiler} against a real local
 * server, and checks that it reports the system calls, CPU time and context switches of both
 * processes per command, counted by the kernel: a command sent and answered costs each side at
 * least one call, and the lone caller one switch.
 */
class ProcessCostProfilerTests {

	@Test
	void reportsClientAndServerSystemCallsPerCommand() throws Exception {
		Options options = new OptionsBuilder().include("\\.template\\.TemplateBenchmark\\.")
			.param("candidate", "lettuce-bytes-jackson")
			.param("payload", "ORDER")
			.param("writes", "each")
			.forks(0)
			.warmupIterations(1) // the trial's set-up (the server starts) happens in the first iteration
			.warmupTime(TimeValue.milliseconds(100))
			.measurementIterations(2)
			.measurementTime(TimeValue.milliseconds(300))
			.threads(1)
			.addProfiler(ProcessCostProfiler.class, "commands=2")
			.verbosity(VerboseMode.SILENT)
			.shouldFailOnError(true)
			.build();
		Collection<RunResult> results = new Runner(options).run();
		assertThat(results).hasSize(1);
		Map<String, Result> secondary = results.iterator().next().getSecondaryResults();
		assertThat(secondary).containsKeys(ProcessCostProfiler.METRICS.toArray(String[]::new));
		// one thread, one command at a time: each command is a write and a read on both sides
		assertThat(secondary.get("·syscalls.server.writes").getScore()).isBetween(0.9, 1.5);
		assertThat(secondary.get("·syscalls.server.reads").getScore()).isBetween(0.9, 1.5);
		assertThat(secondary.get("·syscalls.client.writes").getScore()).isGreaterThanOrEqualTo(0.9);
		// a lone caller parks for every reply: at least one switch per command in the client
		assertThat(secondary.get("·switches.client").getScore()).isGreaterThanOrEqualTo(0.9);
		assertThat(secondary.get("·cpu.client").getScore()).isPositive();
		// the kernel's share of each side's CPU time is part of it
		assertThat(secondary.get("·cpu.client.kernel").getScore()).isBetween(0.0, secondary.get("·cpu.client").getScore());
		assertThat(secondary.get("·cpu.server.kernel").getScore()).isBetween(0.0, secondary.get("·cpu.server").getScore());
		// Lettuce's event loop wrote and read every command: it spent CPU on each
		assertThat(secondary.get(ProcessCostProfiler.CLIENT_EVENT_LOOP_CPU).getScore()).isPositive();
	}

}
