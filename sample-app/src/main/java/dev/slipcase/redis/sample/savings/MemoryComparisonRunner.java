package dev.slipcase.redis.sample.savings;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * The command-line mode: started with {@code --compare-memory} (or {@code --compare-memory=N}),
 * the app runs the {@link MemoryComparison} once at start-up and prints it, then serves as usual.
 */
@Component
class MemoryComparisonRunner implements ApplicationRunner {

	static final String OPTION = "compare-memory";

	private final MemoryComparison comparison;

	private final PrintStream out;

	@Autowired
	MemoryComparisonRunner(MemoryComparison comparison) {
		this(comparison, System.out);
	}

	MemoryComparisonRunner(MemoryComparison comparison, PrintStream out) {
		this.comparison = comparison;
		this.out = out;
	}

	@Override
	public void run(ApplicationArguments args) {
		if (!args.containsOption(OPTION)) {
			return;
		}
		List<String> values = args.getOptionValues(OPTION);
		Integer keys = (values == null || values.isEmpty() || values.get(0).isBlank()) ? null
				: Integer.valueOf(values.get(0));
		MemoryComparison.Result result = this.comparison.compare(keys);
		this.out.println(String.format(Locale.ROOT,
				"%nMemory comparison on Redis %s, %,d counters (MEMORY USAGE summed over the keys):%n"
						+ "  plain keys    %,12d bytes  %8.1f bytes/key%n"
						+ "  sharded       %,12d bytes  %8.1f bytes/key  (%d buckets, %d flipped)%n"
						+ "  plain / sharded  %.2fx%n",
				result.redisVersion(), result.keys(), result.plain().memoryUsage(), result.plain().bytesPerKey(),
				result.sharded().memoryUsage(), result.sharded().bytesPerKey(), result.buckets(),
				result.flippedBuckets(), result.plainToSharded()));
	}

}
