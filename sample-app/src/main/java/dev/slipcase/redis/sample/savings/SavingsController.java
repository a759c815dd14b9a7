package dev.slipcase.redis.sample.savings;


import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /savings}: what Slipcase saves, measured now; {@code POST /memory-comparison?keys=N}:
 * N keys loaded plain and sharded, measured with {@code INFO memory}.
 */
@RestController
class SavingsController {

	private final Savings savings;

	private final MemoryComparison comparison;

	SavingsController(Savings savings, MemoryComparison comparison) {
		this.savings = savings;
		this.comparison = comparison;
	}

	@GetMapping("/savings")
	Savings.Report savings() {
		return this.savings.report();
	}

	@PostMapping("/memory-comparison")
	MemoryComparison.Result compare(@RequestParam(required = false) @Nullable Integer keys) {
		return this.comparison.compare(keys);
	}

}
