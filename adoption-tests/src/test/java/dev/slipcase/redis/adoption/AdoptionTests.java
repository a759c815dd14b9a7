package dev.slipcase.redis.adoption;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.template.ValueTemplates;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cache.CacheManager;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.GenericJacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The shop app with the starter added and no {@code slipcase.*} property, against a real Redis:
 * every cached method and template keeps working, values are stored lean and plain, and entries
 * the caches cannot use are misses that the methods repair.
 */
@SpringBootTest
@ExtendWith(OutputCaptureExtension.class)
class AdoptionTests {

	private static final RedisServer redis = RedisServers.shared();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	@Autowired
	private ShopService shop;

	@Autowired
	private RedisConnectionFactory connectionFactory;

	@Autowired
	private RedisTemplate<Object, Object> redisTemplate;

	@Autowired
	@Qualifier("slipcaseRedisTemplate")
	private RedisTemplate<String, Object> slipcaseRedisTemplate;

	@Autowired
	private ValueTemplates valueTemplates;

	@Autowired
	private CacheManager cacheManager;

	@Autowired
	private MeterRegistry meters;

	@BeforeEach
	void emptyRedis() {
		redis.command("FLUSHDB");
		this.shop.resetCalls();
	}

	// every cache round-trips

	@Test
	void aCachedRecordRoundTripsAndIsStoredAsPlainJsonWithoutClassNames() {
		assertThat(this.shop.order(41)).isEqualTo(Order.sample(41));
		stored("orders::41", "{");
		assertThat(this.shop.order(41)).isEqualTo(Order.sample(41));
		assertThat(this.shop.calls("order")).isEqualTo(1);
		assertThat(text("orders::41")).isEqualTo("{\"id\":41,\"customer\":\"ada\",\"total\":39.98,"
				+ "\"placed\":\"2026-11-21T10:15:30.123456Z\",\"lines\":[{\"sku\":\"sku-41\",\"quantity\":2,"
				+ "\"price\":19.99}],\"note\":null}");
	}

	@Test
	void aCachePutIsReadByTheCacheableMethod() {
		Order changed = new Order(42, "grace", BigDecimal.ONE, Order.sample(42).placed(), List.of(), "changed");
		this.shop.save(changed);
		stored("orders::42", "{\"id\":42,\"customer\":\"grace\"");
		assertThat(this.shop.order(42)).isEqualTo(changed);
		assertThat(this.shop.calls("order")).isZero();
	}

	@Test
	void aCachedListOfRecordsRoundTrips() {
		List<Order> first = this.shop.recent("ada");
		stored("recent::ada", "[");
		assertThat(this.shop.recent("ada")).isEqualTo(first).allMatch(Order.class::isInstance);
		assertThat(this.shop.calls("recent")).isEqualTo(1);
		assertThat(text("recent::ada")).startsWith("[{\"id\":1,");
	}

	@Test
	void aCachedMapOfListsOfRecordsRoundTrips() {
		Map<String, List<Order>> first = this.shop.byCustomer("eu");
		stored("by-customer::eu", "{");
		Map<String, List<Order>> second = this.shop.byCustomer("eu");
		assertThat(second).isEqualTo(first);
		assertThat(second.get("grace")).allMatch(Order.class::isInstance);
		assertThat(this.shop.calls("byCustomer")).isEqualTo(1);
	}

	@Test
	void cachedOptionalsRoundTripPresentAndEmpty() {
		assertThat(this.shop.maybe(2)).contains(Order.sample(2));
		stored("maybe::2", "{");
		assertThat(this.shop.maybe(2)).contains(Order.sample(2));
		assertThat(this.shop.maybe(3)).isEmpty();
		stored("maybe::3", "");
		assertThat(this.shop.maybe(3)).isEmpty();
		assertThat(this.shop.calls("maybe")).isEqualTo(2);
	}

	@Test
	void aCachedJavaBeanRoundTrips() {
		assertThat(this.shop.customer("ada")).isEqualTo(new Customer("ada", 3));
		stored("customers::ada", "{");
		assertThat(this.shop.customer("ada")).isEqualTo(new Customer("ada", 3));
		assertThat(this.shop.calls("customer")).isEqualTo(1);
		assertThat(text("customers::ada")).isEqualTo("{\"name\":\"ada\",\"orders\":3}");
	}

	@Test
	void aCacheSharedByTwoTypesTagsEachValueWithAShortIdOfTheAppsOwnTypeName() {
		assertThat(this.shop.lookupOrder(7)).isEqualTo(Order.sample(7));
		assertThat(this.shop.lookupCustomer("ada")).isEqualTo(new Customer("ada", 7));
		stored("lookups::order:7", "[");
		stored("lookups::customer:ada", "[");
		assertThat(this.shop.lookupOrder(7)).isEqualTo(Order.sample(7));
		assertThat(this.shop.lookupCustomer("ada")).isEqualTo(new Customer("ada", 7));
		assertThat(this.shop.calls("lookupOrder") + this.shop.calls("lookupCustomer")).isEqualTo(2);
		assertThat(text("lookups::order:7")).startsWith("[\"Order\",{\"id\":7,");
		assertThat(text("lookups::customer:ada")).isEqualTo("[\"Customer\",{\"name\":\"ada\",\"orders\":7}]");
	}

	@Test
	void aSyncCacheRoundTrips() {
		assertThat(this.shop.syncOrder(8)).isEqualTo(Order.sample(8));
		stored("sync::8", "{");
		assertThat(this.shop.syncOrder(8)).isEqualTo(Order.sample(8));
		assertThat(this.shop.calls("syncOrder")).isEqualTo(1);
	}

	@Test
	void aCachedNullOfASyncCacheIsAHit() {
		assertThat(this.shop.syncNothing(12)).isNull();
		stored("sync::none:12", "");
		assertThat(this.shop.syncNothing(12)).isNull();
		assertThat(this.shop.calls("syncNothing")).isEqualTo(1);
	}

	@Test
	void cachedStringsAndNumbersAreStoredAsBareText() {
		assertThat(this.shop.name(9)).isEqualTo("order 9");
		stored("names::9", "order");
		assertThat(this.shop.name(9)).isEqualTo("order 9");
		assertThat(this.shop.count("apples")).isEqualTo(6);
		stored("counts::apples", "6");
		assertThat(this.shop.count("apples")).isEqualTo(6);
		assertThat(this.shop.calls("name") + this.shop.calls("count")).isEqualTo(2);
		assertThat(text("names::9")).isEqualTo("order 9");
		assertThat(text("counts::apples")).isEqualTo("6");
	}

	// entries a cache cannot use are misses that the method repairs

	static Stream<Arguments> unusableEntries() {
		return Stream.of(Arguments.of("another allowed type", bytes("[\"java.decimal\",1E999999999]")),
				Arguments.of("an unknown type id", bytes("[\"Refund\",{\"id\":1}]")),
				Arguments.of("garbage", new byte[] { (byte) 0xF8, 0x01, (byte) 0xFF, 0x00, 0x13, 0x37 }),
				Arguments.of("a JDK-serialized value from before the starter",
						new JdkSerializationRedisSerializer().serialize(Order.sample(1))),
				Arguments.of("another app's text", bytes("hello")),
				Arguments.of("another type in Spring's typed JSON",
						GenericJacksonJsonRedisSerializer.builder().build().serialize(new Customer("mallory", 1))),
				Arguments.of("a value of another JSON shape", bytes("{\"id\":\"not a number\"}")));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("unusableEntries")
	void anUnusableEntryIsAMissThatTheMethodRepairs(String what, byte[] entry) {
		write("orders::41", entry);
		assertThat(this.shop.order(41)).isEqualTo(Order.sample(41));
		assertThat(this.shop.calls("order")).isEqualTo(1);
		stored("orders::41", "{\"id\":41,");
		assertThat(this.shop.order(41)).isEqualTo(Order.sample(41));
		assertThat(this.shop.calls("order")).isEqualTo(1);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("unusableEntries")
	void anUnusableEntryOfASyncCacheIsAMissThatTheMethodRepairs(String what, byte[] entry) {
		write("sync::5", entry);
		assertThat(this.shop.syncOrder(5)).isEqualTo(Order.sample(5));
		assertThat(this.shop.calls("syncOrder")).isEqualTo(1);
		stored("sync::5", "{\"id\":5,");
	}

	@Test
	void anUnknownIdInACacheOfSeveralTypesIsAMiss() {
		write("lookups::order:11", bytes("[\"java.decimal\",1]"));
		assertThat(this.shop.lookupOrder(11)).isEqualTo(Order.sample(11));
		assertThat(this.shop.calls("lookupOrder")).isEqualTo(1);
		stored("lookups::order:11", "[\"Order\",");
	}

	@Test
	void unusableEntriesAreCountedAndTheFirstOfEachCacheIsLoggedWithItsKey(CapturedOutput output) {
		double before = unreadable("customers");
		write("customers::eve", bytes("garbage"));
		write("customers::bob", bytes("more garbage"));
		this.shop.customer("eve");
		this.shop.customer("bob");
		assertThat(unreadable("customers") - before).isEqualTo(2);
		String log = output.getOut();
		assertThat(log).containsOnlyOnce("Cache 'customers' treats an entry it cannot use as a miss, and the method result replaces it")
			.contains("key 'customers::eve'");
	}

	// templates

	@Test
	void bootsRedisTemplateKeepsItsJdkKeysAndValues() {
		this.redisTemplate.opsForValue().set("order:1", Order.sample(1));
		assertThat(this.redisTemplate.opsForValue().get("order:1")).isEqualTo(Order.sample(1));
		assertThat(this.redisTemplate.getKeySerializer()).isInstanceOf(JdkSerializationRedisSerializer.class);
		assertThat(this.redisTemplate.getValueSerializer()).isInstanceOf(JdkSerializationRedisSerializer.class);
	}

	@Test
	void slipcasesTemplateStoresTheAppsCachedTypesAndPlainValues() {
		RedisTemplate<String, Object> template = this.slipcaseRedisTemplate;
		template.opsForValue().set("order:2", Order.sample(2));
		template.opsForValue().set("customer:ada", new Customer("ada", 1));
		template.opsForValue().set("greeting", "hello");
		template.opsForValue().set("visits", 41L);
		assertThat(template.opsForValue().get("order:2")).isEqualTo(Order.sample(2));
		assertThat(template.opsForValue().get("customer:ada")).isEqualTo(new Customer("ada", 1));
		assertThat(template.opsForValue().get("greeting")).isEqualTo("hello");
		assertThat(template.opsForValue().get("visits")).isEqualTo(41L);
		assertThat(text("customer:ada")).isEqualTo("[\"Customer\",{\"name\":\"ada\",\"orders\":1}]");
	}

	@Test
	void typedValueTemplatesStoreStringsAndNumbersAsBareTextThatIncrUnderstands() {
		this.valueTemplates.forType(String.class).set("greeting", "hello", java.time.Duration.ofMinutes(5));
		this.valueTemplates.forType(Long.class).set("visits", 41L);
		assertThat(text("greeting")).isEqualTo("hello");
		assertThat((Long) redis.command("PTTL", "greeting")).isBetween(1L, 300_000L);
		assertThat(redis.command("INCR", "visits")).isEqualTo(42L);
		assertThat(this.valueTemplates.forType(Long.class).get("visits")).isEqualTo(42L);
	}

	// errors name the key

	@Test
	void aValueACacheCannotStoreFailsNamingTheKey() {
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> this.cacheManager.getCache("orders").put(43L, BigDecimal.ONE))
			.withMessageStartingWith("key 'orders::43': ")
			.withMessageContaining("stores Order");
	}

	@Test
	void aValueSlipcasesTemplateCannotReadFailsNamingTheKey() {
		write("broken", new byte[] { (byte) 0xF8, 0x02, 0x01 });
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> this.slipcaseRedisTemplate.opsForValue().get("broken"))
			.withMessageStartingWith("key 'broken': ");
	}

	@Test
	void aValueSlipcasesTemplateCannotWriteFailsNamingTheKey() {
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> this.slipcaseRedisTemplate.opsForValue().set("thread", new Object()))
			.withMessageStartingWith("key 'thread': ");
	}

	private double unreadable(String cache) {
		var counter = this.meters.find("slipcase.redis.cache.unreadable").tag("cache", cache).counter();
		return (counter != null) ? counter.count() : 0;
	}

	private void write(String key, byte[] value) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			connection.stringCommands().set(bytes(key), value);
		}
	}

	/**
	 * Waits until {@code key} holds a value that starts with {@code prefix}: Spring Data's cache
	 * writer sends cache writes asynchronously by default, so an entry a method just stored may
	 * reach Redis a moment after the method returned.
	 */
	private String stored(String key, String prefix) {
		long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
		while (true) {
			try (RedisConnection connection = this.connectionFactory.getConnection()) {
				byte[] value = connection.stringCommands().get(bytes(key));
				if (value != null && new String(value, StandardCharsets.UTF_8).startsWith(prefix)) {
					return new String(value, StandardCharsets.UTF_8);
				}
				if (System.nanoTime() > deadline) {
					throw new AssertionError("expected " + key + " to hold a value starting with " + prefix + ", was "
							+ ((value != null) ? new String(value, StandardCharsets.UTF_8) : "nothing"));
				}
			}
			Thread.onSpinWait();
		}
	}

	private String text(String key) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			byte[] value = connection.stringCommands().get(bytes(key));
			assertThat(value).as("value of " + key).isNotNull();
			return new String(value, StandardCharsets.UTF_8);
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
