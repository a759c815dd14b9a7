package dev.slipcase.redis.sample.savings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.sample.catalogue.Catalogue;
import dev.slipcase.redis.sample.catalogue.CategoryListing;
import dev.slipcase.redis.sample.catalogue.Product;
import dev.slipcase.redis.sample.catalogue.ProductActivity;
import dev.slipcase.redis.sample.document.Documents;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.sharded.BucketMemoryReport;
import dev.slipcase.redis.sharded.ShardedTemplate;
import io.netty.buffer.Unpooled;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.stereotype.Service;

/**
 * What Slipcase saves in this app, measured on the running Redis: the stored size of a cached
 * product and category listing ({@code STRLEN}, {@code MEMORY USAGE}) beside the size of the same
 * value in other formats, and what the sharded namespaces cost per key ({@code MEMORY USAGE} of
 * their buckets) beside the same keys stored as plain keys ({@code MEMORY USAGE} of each, set and
 * deleted again).
 */
@Service
public class Savings {

	private static final int PLAIN_PROBES = 50;

	private final Catalogue catalogue;

	private final ShardedTemplate<Long> views;

	private final ShardedTemplate<String> flags;

	private final RedisMemory memory;

	private final CompressorLookup compressors;

	Savings(Catalogue catalogue, @Qualifier("productViewsShardedTemplate") ShardedTemplate<Long> views,
			@Qualifier("featureFlagsShardedTemplate") ShardedTemplate<String> flags, RedisMemory memory,
			@Qualifier("slipcaseCompressors") CompressorLookup compressors) {
		this.catalogue = catalogue;
		this.views = views;
		this.flags = flags;
		this.memory = memory;
		this.compressors = compressors;
	}

	/** Measures the report; reads product 1 and its category through the cache first. */
	public Report report() {
		Product product = this.catalogue.product(1);
		CategoryListing listing = this.catalogue.category(product.category());
		Map<String, StoredValue> cached = new LinkedHashMap<>();
		cached.put("products", stored("products::" + product.id(), product, Product.class));
		cached.put("categories", stored("categories::" + listing.category(), listing, CategoryListing.class));
		Map<String, ShardedCost> sharded = new LinkedHashMap<>();
		sharded.put("product-views", viewsCost());
		sharded.put("feature-flags", flagsCost());
		String document = Documents.key(Documents.PRICE_LIST);
		return new Report(cached, sharded, new Document(document, this.memory.storedBytes(document),
				orZero(this.memory.memoryUsage(document))));
	}

	private <T> StoredValue stored(String key, T value, Class<T> type) {
		long stored = this.memory.storedBytes(key);
		Map<String, Long> formats = new LinkedHashMap<>();
		formats.put("slipcase-json", (long) SlipcaseSerializers.json(type).serialize(value).length);
		formats.put("slipcase-protostuff", (long) SlipcaseSerializers.protostuff(type).serialize(value).length);
		formats.put("spring-generic-json", (long) RedisSerializer.json().serialize(value).length);
		long springJson = formats.get("spring-generic-json");
		return new StoredValue(key, describe(this.memory.head(key, 2)), stored, orZero(this.memory.memoryUsage(key)),
				formats, (stored > 0) ? round((double) springJson / stored) : 0);
	}

	private String describe(byte[] head) {
		if (head.length == 0) {
			return "absent";
		}
		if (!FormatHeader.isHeader(head[0]) || head.length < 2) {
			return "json (bare, readable in redis-cli)";
		}
		int header = FormatHeader.read(Unpooled.wrappedBuffer(head), "stored value");
		String format = switch (FormatHeader.formatId(header)) {
			case FormatHeader.STRING -> "string";
			case FormatHeader.JSON, FormatHeader.POLYMORPHIC_JSON -> "json";
			case FormatHeader.PROTOSTUFF, FormatHeader.POLYMORPHIC_PROTOSTUFF -> "protostuff";
			case FormatHeader.NUMBER -> "number";
			case FormatHeader.BYTES -> "bytes";
			case FormatHeader.FORY -> "fory";
			default -> "format " + FormatHeader.formatId(header);
		};
		int compressorId = FormatHeader.compressorId(header);
		if (compressorId == 0) {
			return format;
		}
		Compressor compressor = this.compressors.byId(compressorId);
		return format + "+" + ((compressor != null) ? compressor.name() : "compressor " + compressorId);
	}

	private ShardedCost viewsCost() {
		Map<String, String> plain = new LinkedHashMap<>();
		List<String> keys = new ArrayList<>();
		for (long id = 1; id <= PLAIN_PROBES; id++) {
			keys.add(ProductActivity.viewsKey(id));
		}
		List<Long> values = this.views.multiGet(keys);
		for (int i = 0; i < keys.size(); i++) {
			if (values.get(i) != null) {
				plain.put(keys.get(i), Long.toString(values.get(i)));
			}
		}
		return cost(this.views.memoryReport(100), plain);
	}

	private ShardedCost flagsCost() {
		Map<String, String> plain = new LinkedHashMap<>();
		List<String> keys = new ArrayList<>();
		for (long id = 1; keys.size() < PLAIN_PROBES; id++) {
			for (String flag : ProductActivity.FLAGS) {
				keys.add(ProductActivity.flagKey(id, flag));
			}
		}
		List<String> values = this.flags.multiGet(keys);
		for (int i = 0; i < keys.size(); i++) {
			if (values.get(i) != null) {
				plain.put(keys.get(i), values.get(i));
			}
		}
		return cost(this.flags.memoryReport(100), plain);
	}

	private ShardedCost cost(BucketMemoryReport report, Map<String, String> probes) {
		double plain = round(this.memory.plainBytesPerKey(probes));
		double sharded = round(report.bytesPerKey());
		return new ShardedCost(report.fields(), report.sampledBuckets(), report.flippedBuckets(), sharded, plain,
				(sharded > 0) ? round(plain / sharded) : 0);
	}

	private static long orZero(Long value) {
		return (value != null) ? value : 0;
	}

	static double round(double value) {
		return Math.round(value * 100) / 100.0;
	}

	/**
	 * The whole report.
	 *
	 * @param cached the cached product and category listing, by cache
	 * @param sharded the sharded namespaces, by name
	 * @param document the stored document
	 */
	public record Report(Map<String, StoredValue> cached, Map<String, ShardedCost> sharded, Document document) {

	}

	/**
	 * One cached value.
	 *
	 * @param key its Redis key
	 * @param storedAs the format (and compressor) its stored bytes say they are in
	 * @param storedBytes {@code STRLEN} of the stored value
	 * @param memoryUsage {@code MEMORY USAGE} of the key
	 * @param sameValueIn the size of the same value in other formats, encoded here
	 * @param springJsonToStored {@code spring-generic-json} bytes (Spring Data's
	 * {@code RedisSerializer.json()}) per stored byte
	 */
	public record StoredValue(String key, String storedAs, long storedBytes, long memoryUsage,
			Map<String, Long> sameValueIn, double springJsonToStored) {

	}

	/**
	 * What a sharded namespace costs.
	 *
	 * @param keys logical keys in the sampled buckets
	 * @param buckets buckets sampled
	 * @param flippedBuckets sampled buckets out of the compact encoding (should be 0)
	 * @param shardedBytesPerKey {@code MEMORY USAGE} of the buckets per logical key
	 * @param plainBytesPerKey {@code MEMORY USAGE} per key of up to 50 of the same keys stored
	 * as plain keys
	 * @param plainToSharded how many times more a plain key costs
	 */
	public record ShardedCost(long keys, int buckets, int flippedBuckets, double shardedBytesPerKey,
			double plainBytesPerKey, double plainToSharded) {

	}

	/**
	 * The stored document.
	 *
	 * @param key its key
	 * @param storedBytes its length
	 * @param memoryUsage {@code MEMORY USAGE} of the key
	 */
	public record Document(String key, long storedBytes, long memoryUsage) {

	}

}
