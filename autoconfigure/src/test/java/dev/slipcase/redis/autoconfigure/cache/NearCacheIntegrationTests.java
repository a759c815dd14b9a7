package dev.slipcase.redis.autoconfigure.cache;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.fixtures.Order;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.netty.util.concurrent.FastThreadLocalThread;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The near tier of {@code @Cacheable} caches in a Boot app against a real Redis (7.0): off by
 * default, on with {@code slipcase.redis.cache.near.enabled} for the named caches only, a hit
 * served without a command to Redis, and the local copy forgotten when another client changes the
 * key, when the database is flushed, and while the tracking connection is killed or the server
 * paused.
 */
class NearCacheIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(15);

	private static final RedisServer redis = RedisServers.start();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
				SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
		.withUserConfiguration(CachingApp.class)
		.withPropertyValues(RedisProperties.of(redis))
		.withPropertyValues("spring.cache.type=redis");

	/** An application that declares no cache, with the near tier on: caches are made on first use. */
	private final ApplicationContextRunner noDeclaredCache = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
				SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
		.withUserConfiguration(EmptyCachingApp.class)
		.withPropertyValues(RedisProperties.of(redis))
		.withPropertyValues("spring.cache.type=redis", "slipcase.redis.cache.near.enabled=true");

	@AfterAll
	static void stop() throws Exception {
		redis.close();
	}

	@Test
	void offByDefault() {
		this.runner.run((context) -> assertThat(context.getBean(CacheManager.class)).isExactlyInstanceOf(
				RedisCacheManager.class));
	}

	@Test
	void offWithoutCaffeine() {
		this.runner.withClassLoader(new FilteredClassLoader("com.github.benmanes.caffeine"))
			.withPropertyValues("slipcase.redis.cache.near.enabled=true")
			.run((context) -> assertThat(context.getBean(CacheManager.class))
				.isExactlyInstanceOf(RedisCacheManager.class));
	}

	@Test
	void onlyTheNamedCachesHaveANearTierAndTheManagerIsStillARedisCacheManager() {
		this.runner
			.withPropertyValues("slipcase.redis.cache.near.enabled=true", "slipcase.redis.cache.near.cache-names=orders")
			.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				assertThat(context.getBean(RedisCacheManager.class)).isSameAs(manager);
				assertThat(manager.nearTiers()).containsOnlyKeys("orders");
				assertThat(manager.getCache("orders")).isInstanceOf(dev.slipcase.redis.near.NearRedisCache.class);
				assertThat(manager.getCache("others")).isNotInstanceOf(dev.slipcase.redis.near.NearRedisCache.class);
				assertThat(manager.getCacheNames()).contains("orders", "others");
			});
	}

	@Test
	void everyKnownCacheHasANearTierWhenNoneIsNamed() {
		this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true").run((context) -> {
			NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
			assertThat(manager.nearTiers()).containsKeys("orders", "others");
		});
	}

	@Test
	void noCacheToGiveANearTierFailsNamingTheProperty() {
		this.noDeclaredCache
			.withBean(RedisCacheManagerBuilderCustomizer.class,
					() -> RedisCacheManager.RedisCacheManagerBuilder::disableCreateOnMissingCache)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(SlipcaseConfigurationException.class)
				.hasMessageContaining("slipcase.redis.cache.near.cache-names"));
	}

	@Test
	void aCacheCreatedOnFirstUseGetsANearTierTrackedOnItsPrefix() {
		this.noDeclaredCache.withPropertyValues("slipcase.redis.cache.near.heartbeat=500ms")
			.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				assertThat(manager.nearTiers()).isEmpty();
				NearCache late = seenByTier(manager, "late");
				// a second cache is tracked on its own prefix too, and the first one still is
				NearCache later = seenByTier(manager, "later");
				assertThat(manager.nearTiers()).containsOnlyKeys("late", "later");
				redis.command("DEL", "late::1");
				Wait.until(TIMEOUT, () -> late.peek("late::1") == null);
				assertThat(later.isTrusted()).isTrue();
			});
	}

	@Test
	void aListenerThatFailsDoesNotKeepATierFromACacheCreatedOnFirstUse() {
		this.noDeclaredCache
			.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				manager.forEachTier((name, near) -> {
					throw new IllegalStateException("a meter registry refused it");
				});
				assertThat(manager.getCache("late")).isInstanceOf(dev.slipcase.redis.near.NearRedisCache.class);
				assertThat(manager.nearTiers()).containsOnlyKeys("late");
			});
	}

	@Test
	void aNamedCacheTheManagerNeitherKnowsNorCreatesFailsNamingTheProperty() {
		this.runner
			.withBean(RedisCacheManagerBuilderCustomizer.class,
					() -> RedisCacheManager.RedisCacheManagerBuilder::disableCreateOnMissingCache)
			.withPropertyValues("slipcase.redis.cache.near.enabled=true", "slipcase.redis.cache.near.cache-names=ordres")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(SlipcaseConfigurationException.class)
				.hasMessageContaining("ordres"));
	}

	/**
	 * Creates the cache {@code name} through {@code manager}, which gives it a near tier, and
	 * checks that Redis reports another client's change of one of its keys to that tier.
	 */
	private static NearCache seenByTier(NearCacheManager manager, String name) throws InterruptedException {
		Cache cache = manager.getCache(name);
		assertThat(cache).isInstanceOf(dev.slipcase.redis.near.NearRedisCache.class);
		NearCache near = manager.nearTiers().get(name);
		awaitPutsOnTracking(manager, near);
		cache.put(1, "one");
		// held at once: Redis does not report a put back to the tracking connection it went on
		assertThat(near.peek(name + "::1")).isEqualTo("one");
		redis.command("SET", name + "::1", "changed by another client");
		Wait.until(TIMEOUT, () -> near.peek(name + "::1") == null);
		return near;
	}

	@Test
	void hitsAreServedLocallyAndAnotherClientsChangeFlushKillAndPauseAreSeen() {
		this.runner
			.withPropertyValues("slipcase.redis.cache.near.enabled=true", "slipcase.redis.cache.near.heartbeat=500ms",
					"spring.cache.redis.key-prefix=near-it:")
			.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				NearCache near = manager.nearTiers().get("orders");
				OrderService service = context.getBean(OrderService.class);
				awaitPutsOnTracking(manager, near);

				assertThat(service.order(1)).isEqualTo(Order.sample(1, null));
				// the cache's put is held at once (not reported back to the connection it went on)
				assertThat(near.peek("near-it:orders::1")).isNotNull();
				assertThat(service.order(1)).isEqualTo(Order.sample(1, null));
				assertThat(service.calls()).isEqualTo(1);
				long gets = redis.calls("get");
				for (int i = 0; i < 100; i++) {
					assertThat(service.order(1)).isEqualTo(Order.sample(1, null));
				}
				assertThat(redis.calls("get")).as("GETs sent for 100 near hits").isEqualTo(gets);
				assertThat(near.hits()).isGreaterThanOrEqualTo(100);

				// another client deletes the entry: Redis' invalidation makes the next call a miss
				redis.command("DEL", "near-it:orders::1");
				Wait.until(TIMEOUT, () -> near.peek("near-it:orders::1") == null);
				assertThat(service.order(1)).isEqualTo(Order.sample(1, null));
				assertThat(service.calls()).isEqualTo(2);
				assertThat(near.invalidations()).isPositive();

				// a flush clears the tier
				service.order(2);
				Wait.until(TIMEOUT, () -> near.peek("near-it:orders::2") != null || fetchAgain(service, 2));
				redis.command("FLUSHALL");
				Wait.until(TIMEOUT, () -> near.peek("near-it:orders::2") == null);

				// a killed tracking connection bypasses the tier until tracking is back
				service.order(3);
				Wait.until(TIMEOUT, () -> near.peek("near-it:orders::3") != null || fetchAgain(service, 3));
				redis.command("CLIENT", "KILL", "ID", Long.toString(manager.tracking().clientId(TIMEOUT)));
				Wait.until(TIMEOUT, () -> !near.isTrusted() || near.flushes() >= 2);
				assertThat(near.peek("near-it:orders::3")).isNull();
				Wait.until(TIMEOUT, near::isTrusted);

				// a paused server stops heartbeats: the tier is cleared and bypassed, then back
				service.order(3);
				Wait.until(TIMEOUT, () -> near.peek("near-it:orders::3") != null || fetchAgain(service, 3));
				long bypassed = near.bypassed();
				redis.command("CLIENT", "PAUSE", "2500", "ALL");
				Wait.until(TIMEOUT, () -> !near.isTrusted());
				assertThat(near.peek("near-it:orders::3")).isNull();
				service.order(3);
				assertThat(near.bypassed()).isGreaterThan(bypassed);
				Wait.until(TIMEOUT, near::isTrusted);
			});
	}

	@Test
	void aMissRetrievedForAReactiveMethodCompletesOffNettysThreadsWhereItsPutMayWaitForRedis() {
		ApplicationContextRunner runner = this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true",
				"spring.cache.redis.key-prefix=near-miss:");
		runner.run((context) -> {
			NearCacheManager caches = (NearCacheManager) context.getBean(CacheManager.class);
			NearCache tier = caches.nearTiers().get("orders");
			awaitPutsOnTracking(caches, tier);
			Cache orders = caches.getCache("orders");
			// Spring's aspect calls the method and puts on the thread that completes the miss
			AtomicReference<Thread> completedOn = new AtomicReference<>();
			AtomicReference<Object> found = new AtomicReference<>("none");
			for (long id = 1; id <= 20; id++) {
				orders.retrieve(id).thenAccept((wrapper) -> {
					completedOn.set(Thread.currentThread());
					found.set(wrapper);
				}).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
				assertThat(found.get()).isNull();
				assertThat(completedOn.get()).as("the thread a miss completed on")
					.isNotInstanceOf(FastThreadLocalThread.class);
				// the put that follows, on that thread, waits for Redis and is held
				orders.put(id, Order.sample(id, "put"));
				assertThat(tier.peek("near-miss:orders::" + id)).isNotNull();
			}
			Cache.ValueWrapper hit = (Cache.ValueWrapper) orders.retrieve(1L).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
			assertThat(hit.get()).isEqualTo(Order.sample(1, "put"));
		});
	}

	@Test
	void aPutIsHeldAtOnceNotReportedBackAndSeenByAnotherInstance() {
		ApplicationContextRunner runner = this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true",
				"spring.cache.redis.key-prefix=near-own:");
		runner.run((first) -> runner.run((second) -> {
			Cache mine = first.getBean(CacheManager.class).getCache("orders");
			Cache theirs = second.getBean(CacheManager.class).getCache("orders");
			NearCache myTier = ((NearCacheManager) first.getBean(CacheManager.class)).nearTiers().get("orders");
			NearCache theirTier = ((NearCacheManager) second.getBean(CacheManager.class)).nearTiers().get("orders");
			awaitPutsOnTracking((NearCacheManager) first.getBean(CacheManager.class), myTier);
			awaitPutsOnTracking((NearCacheManager) second.getBean(CacheManager.class), theirTier);

			Order first1 = Order.sample(1, "first");
			Order second1 = Order.sample(1, "second");
			mine.put(1L, first1);
			assertThat(myTier.peek("near-own:orders::1")).isNotNull();
			long gets = redis.calls("get");
			assertThat(mine.get(1L, Order.class)).isEqualTo(first1);
			assertThat(redis.calls("get")).as("GETs for a read of what this instance put").isEqualTo(gets);
			// the other instance reads it from Redis, holds it, and hears of the next put
			Wait.until(TIMEOUT, () -> first1.equals(theirs.get(1L, Order.class))
					&& theirTier.peek("near-own:orders::1") != null);
			mine.put(1L, second1);
			Wait.until(TIMEOUT, () -> theirTier.peek("near-own:orders::1") == null);
			assertThat(theirs.get(1L, Order.class)).isEqualTo(second1);

			// another client's write, after the puts, is reported; the puts were not (no report of
			// them arrived before it, on the same connection, and the value put is still held)
			redis.command("SET", "near-own:orders::2", "another client's");
			Wait.until(TIMEOUT, () -> myTier.invalidations() >= 1);
			assertThat(myTier.invalidations()).isOne();
			assertThat(myTier.peek("near-own:orders::1")).isNotNull();
			assertThat(mine.get(1L, Order.class)).isEqualTo(second1);
		}));
	}

	@Test
	void aPutIsSeenByAnotherCacheOverTheSameKeysThatRedisDoesNotTell() {
		// without key prefixes, caches 'orders' and 'others' share their Redis keys and tracking
		this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true", "spring.cache.redis.use-key-prefix=false")
			.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				Cache orders = manager.getCache("orders");
				Cache others = manager.getCache("others");
				Wait.until(TIMEOUT, manager.tracking()::isTracking);
				orders.put(7L, Order.sample(7, "first"));
				Wait.until(TIMEOUT, () -> Order.sample(7, "first").equals(others.get(7L, Order.class))
						&& manager.nearTiers().get("others").peek("7") != null);
				orders.put(7L, Order.sample(7, "second"));
				assertThat(manager.nearTiers().get("others").peek("7")).isNull();
				assertThat(others.get(7L, Order.class)).isEqualTo(Order.sample(7, "second"));
			});
	}

	@Test
	void aPutGivenUpBeforeRedisAnsweredIsNotTrustedUntilAHeartbeatShowsItRan() {
		this.runner
			.withPropertyValues("slipcase.redis.cache.near.enabled=true", "spring.data.redis.timeout=300ms",
					"slipcase.redis.cache.near.heartbeat=2s", "spring.cache.redis.key-prefix=near-late:")
			.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				Cache orders = manager.getCache("orders");
				NearCache near = manager.nearTiers().get("orders");
				awaitPutsOnTracking(manager, near);
				// the SET waits for the pause to end, long after the put gave up; Redis will not report it
				redis.command("CLIENT", "PAUSE", "1500", "WRITE");
				assertThatExceptionOfType(QueryTimeoutException.class)
					.isThrownBy(() -> orders.put(1L, Order.sample(1, "late")));
				assertThat(near.isTrusted()).as("trusted right after a put was given up").isFalse();
				Wait.until(TIMEOUT, near::isTrusted);
				assertThat(orders.get(1L, Order.class)).isEqualTo(Order.sample(1, "late"));
			});
	}

	@Test
	void withStatisticsPutsGoThroughTheWriterThatCountsThem() {
		this.runner
			.withPropertyValues("slipcase.redis.cache.near.enabled=true", "spring.cache.redis.enable-statistics=true",
					"spring.cache.redis.key-prefix=near-stats:")
			.run((context) -> {
				RedisCache orders = (RedisCache) context.getBean(CacheManager.class).getCache("orders");
				Wait.until(TIMEOUT, ((NearCacheManager) context.getBean(CacheManager.class)).nearTiers()
					.get("orders")::isTrusted);
				orders.put(1L, Order.sample(1, "counted"));
				assertThat(orders.getStatistics().getPuts()).isOne();
				assertThat(orders.get(1L, Order.class)).isEqualTo(Order.sample(1, "counted"));
			});
	}

	@Test
	void aValueAReaderCouldChangeIsDecodedForEachRead() {
		this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true", "spring.cache.redis.key-prefix=near-copy:")
			.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				Wait.until(TIMEOUT, manager.nearTiers().get("orders")::isTrusted);
				OrderService service = context.getBean(OrderService.class);
				service.order(1);
				Wait.until(TIMEOUT, () -> manager.nearTiers().get("orders").peek("near-copy:orders::1") != null
						|| fetchAgain(service));
				Order first = service.order(1);
				// JSON decodes the lines into an ArrayList: each read gets a copy of its own
				first.lines().clear();
				Order second = service.order(1);
				assertThat(second).isNotSameAs(first).isEqualTo(Order.sample(1, null));
				assertThat(service.calls()).isEqualTo(1);
			});
	}

	@Test
	void closingTheContextClosesTheTrackingConnection() throws Exception {
		java.util.concurrent.atomic.AtomicLong id = new java.util.concurrent.atomic.AtomicLong();
		this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true").run((context) -> {
			NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
			Wait.until(TIMEOUT, manager.tracking()::isTracking);
			// the connection is listed once its opening completed, a moment after tracking is trusted
			Wait.until(TIMEOUT, () -> manager.tracking().clientId(TIMEOUT) != -1);
			id.set(manager.tracking().clientId(TIMEOUT));
			assertThat((String) redis.command("CLIENT", "LIST")).contains("id=" + id.get() + " ");
		});
		Wait.until(TIMEOUT, () -> !((String) redis.command("CLIENT", "LIST")).contains("id=" + id.get() + " "));
	}

	@Test
	void aCacheManagerWithAWriterOfItsOwnIsRefused() {
		this.runner.withUserConfiguration(OwnCacheManager.class)
			.withPropertyValues("slipcase.redis.cache.near.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(SlipcaseConfigurationException.class)
				.hasMessageContaining("slipcase.redis.cache.near.enabled")
				.hasMessageContaining("writer"));
	}

	@Test
	void aPutIsInRedisWhenItReturns() {
		this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true", "spring.cache.redis.key-prefix=near-put:")
			.run((context) -> {
				org.springframework.cache.Cache orders = context.getBean(CacheManager.class).getCache("orders");
				try (io.lettuce.core.RedisClient plain = io.lettuce.core.RedisClient
					.create(io.lettuce.core.RedisURI.create(redis.endpoint().uri()));
						io.lettuce.core.api.StatefulRedisConnection<String, String> connection = plain.connect()) {
					for (long id = 0; id < 1_000; id++) {
						orders.put(id, Order.sample(id, null));
						// Spring Data's asynchronous writes would let this read overtake the write
						assertThat(connection.sync().exists("near-put:orders::" + id)).as("entry %d", id).isOne();
					}
				}
			});
	}

	/**
	 * Waits until {@code near} is trusted and the tracking connection is listed (it reports
	 * tracking a moment before its opening completes; puts go on it once it is).
	 */
	private static void awaitPutsOnTracking(NearCacheManager manager, NearCache near) throws InterruptedException {
		Wait.until(TIMEOUT, () -> near.isTrusted() && manager.tracking().clientId(TIMEOUT) != -1);
	}

	/** Reads again while a fetch raced something that dropped it, so that the tier is filled. */
	private static boolean fetchAgain(OrderService service) {
		return fetchAgain(service, 1);
	}

	private static boolean fetchAgain(OrderService service, long id) {
		service.order(id);
		return false;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class CachingApp {

		@Bean
		OrderService orderService() {
			return new OrderService();
		}

	}

	/** A cache manager of the application's own, with Spring Data's (asynchronous) writer. */
	@Configuration(proxyBeanMethods = false)
	static class OwnCacheManager {

		@Bean
		RedisCacheManager cacheManager(org.springframework.data.redis.connection.RedisConnectionFactory factory) {
			return RedisCacheManager.builder(factory).initialCacheNames(java.util.Set.of("orders")).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class EmptyCachingApp {

	}

	public static class OrderService {

		private final AtomicInteger calls = new AtomicInteger();

		public int calls() {
			return this.calls.get();
		}

		@Cacheable("orders")
		public Order order(long id) {
			this.calls.incrementAndGet();
			return Order.sample(id, null);
		}

		@Cacheable("others")
		public Order other(long id) {
			this.calls.incrementAndGet();
			return Order.sample(id, null);
		}

	}

}
