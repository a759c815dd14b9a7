package dev.slipcase.redis.sample;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.sample.catalogue.Product;
import dev.slipcase.redis.sample.catalogue.ProductActivity;
import dev.slipcase.redis.sample.catalogue.ProductRepository;
import dev.slipcase.redis.sample.document.Documents;
import dev.slipcase.redis.sharded.ShardedTemplate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Seeds Redis at start-up so that every endpoint answers at once: a view counter (0) and the
 * feature flags of every product, and the price-list document (a few hundred KB). Values already
 * in Redis are kept, so a restart does not reset them.
 */
@Component
@Order(0)
class SeedData implements ApplicationRunner {

	private static final Log logger = LogFactory.getLog(SeedData.class);

	private final ProductRepository products;

	private final ShardedTemplate<Long> views;

	private final ShardedTemplate<String> flags;

	private final Documents documents;

	SeedData(ProductRepository products, @Qualifier("productViewsShardedTemplate") ShardedTemplate<Long> views,
			@Qualifier("featureFlagsShardedTemplate") ShardedTemplate<String> flags, Documents documents) {
		this.products = products;
		this.views = views;
		this.flags = flags;
		this.documents = documents;
	}

	@Override
	public void run(ApplicationArguments args) {
		Map<String, Long> counters = new LinkedHashMap<>();
		Map<String, String> flagValues = new LinkedHashMap<>();
		for (long id = 1; id <= this.products.size(); id++) {
			counters.put(ProductActivity.viewsKey(id), 0L);
			flagValues.put(ProductActivity.flagKey(id, "featured"), (id % 10 == 1) ? "on" : "off");
			flagValues.put(ProductActivity.flagKey(id, "discount"), (id % 7 == 2) ? "on" : "off");
		}
		int seededViews = seedAbsent(this.views, counters);
		int seededFlags = seedAbsent(this.flags, flagValues);
		byte[] priceList = priceList(this.products);
		boolean seededDocument = this.documents.storeIfAbsent(Documents.PRICE_LIST, priceList);
		logger.info("Seeded " + seededViews + " view counters, " + seededFlags + " feature flags"
				+ (seededDocument ? " and the " + priceList.length + "-byte document " + Documents.PRICE_LIST : ""));
	}

	private static <V> int seedAbsent(ShardedTemplate<V> template, Map<String, V> values) {
		List<String> keys = new ArrayList<>(values.keySet());
		List<V> existing = template.multiGet(keys);
		Map<String, V> absent = new LinkedHashMap<>();
		for (int i = 0; i < keys.size(); i++) {
			if (existing.get(i) == null) {
				absent.put(keys.get(i), values.get(keys.get(i)));
			}
		}
		if (!absent.isEmpty()) {
			template.multiSet(absent);
		}
		return absent.size();
	}

	/** A CSV price list: every product, by week, for 16 weeks; about 400 KB. */
	static byte[] priceList(ProductRepository repository) {
		StringBuilder csv = new StringBuilder("week;id;name;category;price;available_from\n");
		List<Product> products = repository.findAll();
		for (int week = 1; week <= 16; week++) {
			for (Product product : products) {
				csv.append(week).append(';').append(product.id()).append(';').append(product.name()).append(';')
					.append(product.category()).append(';').append(product.price()).append(';')
					.append(product.availableFrom()).append('\n');
			}
		}
		return csv.toString().getBytes(StandardCharsets.UTF_8);
	}

}
