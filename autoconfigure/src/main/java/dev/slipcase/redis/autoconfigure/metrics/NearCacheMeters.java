package dev.slipcase.redis.autoconfigure.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Publishes the near tier of each cache of every {@link NearCacheManager} bean as Micrometer
 * meters, tagged {@code cache} (the cache's name) and {@code cache.manager} (the manager's bean
 * name less a {@code CacheManager} suffix, as Spring Boot tags its own cache meters):
 * <ul>
 * <li>{@value #READS} (function counter; tag {@code result} = {@code hit}|{@code miss}|{@code bypassed}):
 * reads served by the tier, reads that went to Redis while tracking was trusted, and reads that
 * went to Redis because it was not;</li>
 * <li>{@value #INVALIDATIONS} (function counter): keys Redis reported changed;</li>
 * <li>{@value #FLUSHES} (function counter): times the tier forgot everything (a flush, a clear,
 * tracking lost);</li>
 * <li>{@value #SIZE} (gauge): entries the tier holds;</li>
 * <li>{@value #TRUSTED} (gauge): 1 while Redis' invalidations are trusted and the tier serves
 * values, 0 while it is bypassed.</li>
 * </ul>
 * The meters read the tiers' own counters when the registry is read, so a cache read records
 * nothing more. A cache manager becomes a {@code NearCacheManager} only once it is initialized,
 * so the meters are bound when every singleton is ({@link #afterSingletonsInstantiated()}), and
 * those of a tier made later (a cache created on first use) when it is made: a
 * {@code NearCacheManager} created later (a lazy bean) has none. They hold the tiers weakly (the
 * cache manager holds them) and are removed from the registry when the context closes. Thread-safe.
 */
public final class NearCacheMeters implements SmartInitializingSingleton, DisposableBean {

	/** Reads of a near tier, by result. */
	public static final String READS = "slipcase.redis.cache.near.reads";

	/** Keys Redis reported changed to a near tier. */
	public static final String INVALIDATIONS = "slipcase.redis.cache.near.invalidations";

	/** Times a near tier forgot everything. */
	public static final String FLUSHES = "slipcase.redis.cache.near.flushes";

	/** Entries a near tier holds. */
	public static final String SIZE = "slipcase.redis.cache.near.size";

	/** Whether a near tier serves values (1) or is bypassed (0). */
	public static final String TRUSTED = "slipcase.redis.cache.near.trusted";

	private static final String CACHE_MANAGER_SUFFIX = "cacheManager";

	private final MeterRegistry registry;

	private final ListableBeanFactory beans;

	private final List<Meter> meters = new ArrayList<>();

	private boolean destroyed;

	/**
	 * Meters for the near tiers of the {@link NearCacheManager} beans of {@code beans}, bound once
	 * every singleton is instantiated.
	 * @param registry where meters go, never {@code null}
	 * @param beans where to find the cache managers, never {@code null}
	 */
	public NearCacheMeters(MeterRegistry registry, ListableBeanFactory beans) {
		Assert.notNull(registry, "registry must not be null");
		Assert.notNull(beans, "beans must not be null");
		this.registry = registry;
		this.beans = beans;
	}

	/** Binds the meters of every {@link NearCacheManager} bean, each initialized by now. */
	@Override
	public synchronized void afterSingletonsInstantiated() {
		Map<String, NearCacheManager> managers = this.beans.getBeansOfType(NearCacheManager.class, false, false);
		managers.forEach((beanName, manager) -> {
			String managerName = cacheManagerName(beanName);
			manager.forEachTier(
					(cacheName, near) -> bind(near, Tags.of("cache", cacheName, "cache.manager", managerName)));
		});
	}

	/** Binds the meters of one tier; one made after the context closed gets none. */
	private synchronized void bind(NearCache near, Tags tags) {
		if (this.destroyed) {
			return;
		}
		read(near, tags, "hit", NearCache::hits);
		read(near, tags, "miss", NearCache::misses);
		read(near, tags, "bypassed", NearCache::bypassed);
		this.meters.add(FunctionCounter.builder(INVALIDATIONS, near, NearCache::invalidations)
			.tags(tags)
			.description("Keys Redis reported changed to the near tier")
			.register(this.registry));
		this.meters.add(FunctionCounter.builder(FLUSHES, near, NearCache::flushes)
			.tags(tags)
			.description("Times the near tier forgot everything: a flush, a clear, tracking lost")
			.register(this.registry));
		this.meters.add(Gauge.builder(SIZE, near, NearCache::size)
			.tags(tags)
			.description("Entries the near tier holds")
			.register(this.registry));
		this.meters.add(Gauge.builder(TRUSTED, near, (tier) -> tier.isTrusted() ? 1 : 0)
			.tags(tags)
			.description("Whether the near tier serves values (1) or is bypassed because tracking is not trusted (0)")
			.register(this.registry));
	}

	private void read(NearCache near, Tags tags, String result, ToDoubleFunction<NearCache> count) {
		this.meters.add(FunctionCounter.builder(READS, near, count)
			.tags(tags.and("result", result))
			.description("Reads of the near tier: served by it (hit), sent to Redis while tracking was trusted (miss) "
					+ "or because it was not (bypassed)")
			.register(this.registry));
	}

	/** The bean name less a {@code CacheManager} suffix, as Spring Boot's cache meters tag it. */
	private static String cacheManagerName(String beanName) {
		if (beanName.length() > CACHE_MANAGER_SUFFIX.length()
				&& StringUtils.endsWithIgnoreCase(beanName, CACHE_MANAGER_SUFFIX)) {
			return beanName.substring(0, beanName.length() - CACHE_MANAGER_SUFFIX.length());
		}
		return beanName;
	}

	/** Removes the meters from the registry: the tiers stop with the context. */
	@Override
	public synchronized void destroy() {
		this.destroyed = true;
		this.meters.forEach(this.registry::remove);
		this.meters.clear();
	}

	@Override
	public synchronized String toString() {
		return "NearCacheMeters[" + this.meters.size() + " meters]";
	}

}
