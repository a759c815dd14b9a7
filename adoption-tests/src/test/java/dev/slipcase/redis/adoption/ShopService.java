package dev.slipcase.redis.adoption;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/** The app's cached methods, each counting how often it really runs. */
@Service
public class ShopService {

	private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

	@Cacheable("orders")
	public Order order(long id) {
		return counted("order", Order.sample(id));
	}

	@CachePut(cacheNames = "orders", key = "#order.id")
	public Order save(Order order) {
		return counted("save", order);
	}

	@Cacheable("recent")
	public List<Order> recent(String customer) {
		return counted("recent", List.of(Order.sample(1), Order.sample(2)));
	}

	@Cacheable("by-customer")
	public Map<String, List<Order>> byCustomer(String region) {
		Map<String, List<Order>> orders = new LinkedHashMap<>();
		orders.put("ada", List.of(Order.sample(3)));
		orders.put("grace", List.of(Order.sample(4), Order.sample(5)));
		return counted("byCustomer", orders);
	}

	@Cacheable("maybe")
	public Optional<Order> maybe(long id) {
		return counted("maybe", (id % 2 == 0) ? Optional.of(Order.sample(id)) : Optional.empty());
	}

	@Cacheable("customers")
	public Customer customer(String name) {
		return counted("customer", new Customer(name, 3));
	}

	@Cacheable(cacheNames = "lookups", key = "'order:' + #id")
	public Order lookupOrder(long id) {
		return counted("lookupOrder", Order.sample(id));
	}

	@Cacheable(cacheNames = "lookups", key = "'customer:' + #name")
	public Customer lookupCustomer(String name) {
		return counted("lookupCustomer", new Customer(name, 7));
	}

	@Cacheable(cacheNames = "sync", sync = true)
	public Order syncOrder(long id) {
		return counted("syncOrder", Order.sample(id));
	}

	@Cacheable(cacheNames = "sync", key = "'none:' + #id", sync = true)
	public Order syncNothing(long id) {
		return counted("syncNothing", null);
	}

	@Cacheable("names")
	public String name(long id) {
		return counted("name", "order " + id);
	}

	@Cacheable("counts")
	public long count(String what) {
		return counted("count", (long) what.length());
	}

	/** Forgets how often each method ran. */
	public void resetCalls() {
		this.calls.clear();
	}

	/** How often {@code method} ran. */
	public int calls(String method) {
		AtomicInteger count = this.calls.get(method);
		return (count != null) ? count.get() : 0;
	}

	private <T> T counted(String method, T result) {
		this.calls.computeIfAbsent(method, (name) -> new AtomicInteger()).incrementAndGet();
		return result;
	}

}
