package dev.slipcase.redis.sample.catalogue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.sharded.ShardedTemplate;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;

/**
 * Per-product view counters and feature flags, each a tiny value stored as a field of a compact
 * Redis hash by a sharded namespace declared in {@code application.yml}
 * ({@code product-views}: {@code views:<id>} as numbers, {@code HINCRBY} on every view;
 * {@code feature-flags}: {@code flags:<id>:<flag>} as {@code on}/{@code off}).
 */
@Service
public class ProductActivity {

	/** The feature flags every product has. */
	public static final List<String> FLAGS = List.of("featured", "discount");

	private final ShardedTemplate<Long> views;

	private final ShardedTemplate<String> flags;

	ProductActivity(@Qualifier("productViewsShardedTemplate") ShardedTemplate<Long> views,
			@Qualifier("featureFlagsShardedTemplate") ShardedTemplate<String> flags) {
		this.views = views;
		this.flags = flags;
	}

	/** Counts one view of the product and returns its views so far. */
	public long viewed(long productId) {
		return this.views.incrBy(viewsKey(productId), 1);
	}

	/** The product's views so far, 0 when it was never viewed. */
	public long views(long productId) {
		Long views = this.views.get(viewsKey(productId));
		return (views != null) ? views : 0;
	}

	/** The product's feature flags, each {@code false} unless set on. */
	public Map<String, Boolean> flags(long productId) {
		List<String> keys = new ArrayList<>();
		for (String flag : FLAGS) {
			keys.add(flagKey(productId, flag));
		}
		List<String> values = this.flags.multiGet(keys);
		Map<String, Boolean> result = new LinkedHashMap<>();
		for (int i = 0; i < FLAGS.size(); i++) {
			result.put(FLAGS.get(i), "on".equals(values.get(i)));
		}
		return result;
	}

	/** Turns a feature flag of the product on or off. */
	public void setFlag(long productId, String flag, boolean on) {
		if (!FLAGS.contains(flag)) {
			throw new IllegalArgumentException("Unknown flag '" + flag + "', expected one of " + FLAGS);
		}
		this.flags.set(flagKey(productId, flag), on ? "on" : "off");
	}

	/** The logical key of the product's view counter. */
	public static String viewsKey(long productId) {
		return "views:" + productId;
	}

	/** The logical key of one of the product's flags. */
	public static String flagKey(long productId, String flag) {
		return "flags:" + productId + ":" + flag;
	}

}
