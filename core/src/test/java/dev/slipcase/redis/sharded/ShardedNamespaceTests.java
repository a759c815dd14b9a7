package dev.slipcase.redis.sharded;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ShardedNamespaceTests {

	@Test
	void defaultsAreNumericWithTheNameAsAlias() {
		ShardedNamespace namespace = ShardedNamespace.builder("counters").build();
		assertThat(namespace.strategy()).isEqualTo(ShardingStrategy.NUMERIC);
		assertThat(namespace.alias()).isEqualTo("counters");
		assertThat(namespace.fillFactor()).isEqualTo(0.25);
		assertThat(namespace.ttlFallback()).isEqualTo(TtlFallback.PLAIN_KEY);
		assertThat(namespace.ownedKeyPrefix()).isEqualTo("~sc:{counters:");
	}

	@Test
	void aliasWithAColonIsRejectedSoBucketNamesNeverOverlap() {
		assertThatIllegalArgumentException().isThrownBy(() -> ShardedNamespace.builder("a").alias("u:n"))
			.withMessageContaining("alias");
	}

	@Test
	void bucketPrefixWithAHashTagIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> ShardedNamespace.builder("a").bucketPrefix("{x}"))
			.withMessageContaining("bucketPrefix");
	}

	@Test
	void fillFactorOutsideTheUnitIntervalIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> ShardedNamespace.builder("a").fillFactor(1.5))
			.withMessageContaining("fillFactor");
	}

	@Test
	void bucketSizeAboveMaxEntriesIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ShardedNamespace.builder("a").bucketSize(600).maxEntries(512).build())
			.withMessageContaining("bucketSize 600");
	}

	@Test
	void bucketTtlBelowOneMillisecondIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> ShardedNamespace.builder("a").bucketTtl(Duration.ZERO))
			.withMessageContaining("bucketTtl");
	}

	@Test
	void layoutRoundTripsThroughItsStoredText() {
		ShardLayout layout = new ShardLayout(ShardingStrategy.HASHED, 384, 2048, ShardLayout.FNV1A_32, 1, "user-prefs",
				"user;1=x:");
		assertThat(ShardLayout.parse(layout.encode())).isEqualTo(layout);
	}

	@Test
	void unreadableStoredLayoutIsReported() {
		assertThatIllegalStateException().isThrownBy(() -> ShardLayout.parse("v=1;strategy=NUMERIC"))
			.withMessageContaining("bucket-size");
	}

}
