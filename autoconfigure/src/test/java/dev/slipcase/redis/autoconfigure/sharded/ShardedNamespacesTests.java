package dev.slipcase.redis.autoconfigure.sharded;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Tests for {@link ShardedNamespaces#beanName(String)}. */
class ShardedNamespacesTests {

	@Test
	void beanNamesAreTheNamespaceInCamelCase() {
		assertThat(ShardedNamespaces.beanName("users")).isEqualTo("usersShardedTemplate");
		assertThat(ShardedNamespaces.beanName("user-prefs")).isEqualTo("userPrefsShardedTemplate");
		assertThat(ShardedNamespaces.beanName("page.views_v2")).isEqualTo("pageViewsV2ShardedTemplate");
		assertThat(ShardedNamespaces.beanName("Orders")).isEqualTo("ordersShardedTemplate");
	}

}
