package dev.slipcase.redis.serializer.compression;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import dev.slipcase.redis.serializer.compression.Candidates.Candidate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.compress;
import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.decompress;
import static org.assertj.core.api.Assertions.assertThat;

/** One compressor instance shared by several threads: its pooled native contexts never mix calls up. */
class CompressorConcurrencyTests {

	static Stream<Candidate> candidates() {
		return Candidates.all().stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("candidates")
	void sharedInstanceRoundTripsOnManyThreads(Candidate candidate) throws Exception {
		Compressor compressor = candidate.factory().get();
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Future<Integer>> results = new ArrayList<>();
			for (int thread = 0; thread < 4; thread++) {
				long seed = thread;
				results.add(executor.submit(() -> {
					SplittableRandom random = new SplittableRandom(seed);
					int checked = 0;
					for (int i = 0; i < 300; i++) {
						byte[] original = (i % 3 == 0) ? Samples.jsonRecord(random.nextLong())
								: Samples.text(random, random.nextInt(30_000));
						assertThat(decompress(compressor, compress(compressor, original), 1 << 20)).isEqualTo(original);
						checked++;
					}
					return checked;
				}));
			}
			for (Future<Integer> result : results) {
				assertThat(result.get()).isEqualTo(300);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

}
