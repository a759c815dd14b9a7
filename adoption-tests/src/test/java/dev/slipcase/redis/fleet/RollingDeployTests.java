package dev.slipcase.redis.fleet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.slipcase.redis.autoconfigure.endpoint.SlipcaseEndpoint;
import dev.slipcase.redis.fleet.Browser.Page;
import dev.slipcase.redis.fleet.FleetApp.FleetOrder;
import dev.slipcase.redis.serializer.jdk.JdkFormat;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A rolling deploy that adds the starter: instances without it (the app as it ran before, the
 * starter's auto-configurations excluded) and with it serve one user, logged in through the form
 * login, whose requests alternate between them over real HTTP, against one real Redis. With
 * today's defaults the old instances fail on what the new ones cache and the user is logged out;
 * with {@code switch-over: write-jdk} nothing fails; with {@code read-jdk} a session from before
 * the starter stays logged in and is written again in Slipcase's format.
 */
class RollingDeployTests {

	private static final RedisServer redis = RedisServers.shared();

	private static final String WITNESS = "slipcase.fleet.gadget";

	/** The database the fleet shares, apart from the other tests' database 0. */
	private static final int DATABASE = 5;

	private final List<Instance> instances = new ArrayList<>();

	private static RedisClient client;

	private static StatefulRedisConnection<byte[], byte[]> connection;

	@BeforeAll
	static void connect() {
		client = RedisClient.create(RedisURI.builder()
			.withHost(redis.endpoint().host())
			.withPort(redis.endpoint().port())
			.withDatabase(DATABASE)
			.build());
		connection = client.connect(ByteArrayCodec.INSTANCE);
	}

	@AfterAll
	static void disconnect() {
		connection.close();
		client.shutdown();
	}

	@BeforeEach
	void emptyRedis() {
		redis().flushdb();
		System.clearProperty(WITNESS);
	}

	@AfterEach
	void stopInstances() {
		this.instances.forEach(Instance::close);
	}

	@Test
	void withTodaysDefaultsTheOldInstancesFailAndTheUserIsLoggedOut() {
		Instance old = start(false);
		Instance upgraded = start(true);
		Tally tally = alternate(old, upgraded, 200);
		System.out.println("Today's defaults, 200 alternating requests: " + tally);
		assertThat(tally.errorsOn(old)).as("500s on the instances without the starter").isPositive();
		assertThat(tally.logouts).as("requests sent to the login page").isPositive();
	}

	@Test
	void writingJdkTheFleetServesEveryRequestAndNobodyIsLoggedOut() {
		Instance old = start(false);
		Instance upgraded = start(true, "slipcase.redis.cache.switch-over=write-jdk",
				"slipcase.redis.session.switch-over=write-jdk");
		Tally tally = alternate(old, upgraded, 1000);
		System.out.println("write-jdk, 1000 alternating requests: " + tally);
		assertThat(tally.errors).as("errors: " + tally.firstError).isEmpty();
		assertThat(tally.logouts).as("logouts").isZero();
		assertThat(tally.ok).isEqualTo(1000);
		assertThat(jdkReads(upgraded, "cache")).isPositive();
		assertThat(jdkReads(upgraded, "session")).isPositive();
		assertThat(upgraded.context.getBean(SlipcaseEndpoint.class).slipcase().jdkReads())
			.hasEntrySatisfying("cache/fleet-orders", (reads) -> assertThat(reads).isPositive())
			.hasEntrySatisfying("session/session", (reads) -> assertThat(reads).isPositive());
	}

	@Test
	void readingJdkASessionFromBeforeTheStarterStaysLoggedInAndIsWrittenAgainInSlipcasesFormat() {
		Browser browser = new Browser();
		Browser latecomer = new Browser();
		try (Instance old = start(false)) {
			assertThat(browser.logIn(old.port, "/me").body()).isEqualTo("ada 1");
			assertThat(latecomer.get(old.port, "/me").isLoginRedirect()).isTrue();
		}
		// a removed attribute stays as an empty value
		assertThat(sessionValues(browser)).allSatisfy((field, value) -> assertThat(
				value.length == 0 || JdkFormat.isJdkSerialized(value)).as(field).isTrue());
		try (Instance upgraded = start(true, "slipcase.redis.session.switch-over=read-jdk")) {
			Page page = browser.get(upgraded.port, "/me");
			assertThat(page.status()).as(page.toString()).isEqualTo(200);
			assertThat(page.body()).isEqualTo("ada 2");
			// logging in changes the session's id: the session from before is written again under the new one
			assertThat(latecomer.logIn(upgraded.port, "/me").body()).isEqualTo("ada 1");
			assertThat(jdkReads(upgraded, "session")).isPositive();
		}
		for (Browser user : List.of(browser, latecomer)) {
			assertThat(sessionValues(user)).isNotEmpty()
				.allSatisfy((field, value) -> assertThat(JdkFormat.isJdkSerialized(value)).as(field).isFalse());
		}
		try (Instance done = start(true)) {
			assertThat(browser.get(done.port, "/me").body()).isEqualTo("ada 3");
			assertThat(latecomer.get(done.port, "/me").body()).isEqualTo("ada 2");
		}
	}

	@Test
	void bootsRedisTemplateSwitchesOverKeepingTheKeysItWroteBefore() {
		String[] switched = { "slipcase.redis.redis-template.enabled=true", "slipcase.redis.redis-template.jdk-keys=true" };
		try (Instance old = start(false)) {
			template(old).opsForValue().set("note:1", FleetOrder.of(1));
		}
		try (Instance old = start(false);
				Instance upgraded = start(true, with(switched, "slipcase.redis.redis-template.switch-over=write-jdk"))) {
			assertThat(template(upgraded).opsForValue().get("note:1")).isEqualTo(FleetOrder.of(1));
			template(upgraded).opsForValue().set("note:2", FleetOrder.of(2));
			assertThat(template(old).opsForValue().get("note:2")).isEqualTo(FleetOrder.of(2));
		}
		try (Instance upgraded = start(true, with(switched, "slipcase.redis.redis-template.switch-over=read-jdk"))) {
			template(upgraded).opsForValue().set("note:3", FleetOrder.of(3));
			assertThat(template(upgraded).opsForValue().get("note:1")).isEqualTo(FleetOrder.of(1));
			assertThat(jdkReads(upgraded, "redis-template")).isPositive();
		}
		byte[] third = redis().get(jdk("note:3"));
		assertThat(third).isNotNull();
		assertThat(JdkFormat.isJdkSerialized(third)).isFalse();
		try (Instance done = start(true, switched)) {
			assertThat(template(done).opsForValue().get("note:3")).isEqualTo(FleetOrder.of(3));
			// done reads no JDK value: one still there fails, naming its key
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> template(done).opsForValue().get("note:1"))
				.withMessageStartingWith("key 'note:1'");
		}
	}

	@SuppressWarnings("unchecked")
	private static RedisTemplate<Object, Object> template(Instance instance) {
		return instance.context.getBean("redisTemplate", RedisTemplate.class);
	}

	private static String[] with(String[] properties, String more) {
		List<String> all = new ArrayList<>(List.of(properties));
		all.add(more);
		return all.toArray(String[]::new);
	}

	@Test
	void aHostileJdkValueIsAMissOrAnAbsentSessionInEveryPhase() {
		// a gadget chain's trigger, a 2^31 array header, a graph nested 40 deep
		byte[] gadget = jdk(gadget());
		byte[] hugeArray = jdk(new byte[8]);
		hugeArray[hugeArray.length - 12] = 0x7F;
		Object nested = "leaf";
		for (int i = 0; i < 40; i++) {
			nested = new ArrayList<>(List.of(nested));
		}
		// an order whose items (List<String> as declared) hold the nested lists: read, it would be served
		FleetApp.FleetOrder planted = FleetApp.FleetOrder.of(9);
		byte[] deep = jdk(new FleetApp.FleetOrder(9, planted.customer(), planted.total(), planted.placed(),
				uncheckedItems(nested)));
		for (String phase : List.of("write-jdk", "read-jdk", "done")) {
			try (Instance upgraded = start(true, "slipcase.redis.cache.switch-over=" + phase,
					"slipcase.redis.session.switch-over=" + phase)) {
				set("fleet-orders::7", gadget);
				set("fleet-orders::8", hugeArray);
				set("fleet-orders::9", deep);
				Browser browser = new Browser();
				browser.logIn(upgraded.port, "/me");
				assertThat(browser.get(upgraded.port, "/orders/7").body()).as(phase).contains("\"id\":7");
				assertThat(browser.get(upgraded.port, "/orders/8").body()).as(phase).contains("\"id\":8");
				assertThat(browser.get(upgraded.port, "/orders/9").body()).as(phase).contains("\"sku-9\"")
					.doesNotContain("leaf");
				hset("spring:session:sessions:" + browser.sessionId(), "sessionAttr:evil", gadget);
				assertThat(browser.get(upgraded.port, "/me").isLoginRedirect()).as(phase).isTrue();
			}
		}
		assertThat(System.getProperty(WITNESS)).isNull();
	}

	@SuppressWarnings("unchecked")
	private static List<String> uncheckedItems(Object nested) {
		return (List<String>) (List<?>) List.of(nested);
	}

	/** What the alternating requests came to. */
	static final class Tally {

		int ok;

		int logouts;

		final List<Integer> errors = new ArrayList<>();

		String firstError = "";

		long errorsOn(Instance instance) {
			return this.errors.stream().filter((port) -> port == instance.port).count();
		}

		@Override
		public String toString() {
			return this.ok + " served, " + this.errors.size() + " errors, " + this.logouts + " sent to the login page";
		}

	}

	/**
	 * One user logs in on the old instance, as before the deploy, then sends {@code requests}
	 * requests alternating between the instances, each an order (of 200) or the session page.
	 */
	private static Tally alternate(Instance old, Instance upgraded, int requests) {
		Browser browser = new Browser();
		browser.logIn(old.port, "/me");
		Tally tally = new Tally();
		for (int i = 0; i < requests; i++) {
			Instance instance = (i % 2 == 0) ? upgraded : old;
			String path = (i % 4 < 2) ? "/orders/" + (i / 4 % 200) : "/me";
			Page page = browser.get(instance.port, path);
			if (page.status() == 200) {
				tally.ok++;
			}
			else if (page.isLoginRedirect()) {
				tally.logouts++;
			}
			else {
				if (tally.errors.isEmpty()) {
					tally.firstError = path + " on " + instance.port + ": " + page;
				}
				tally.errors.add(instance.port);
			}
		}
		return tally;
	}

	private static double jdkReads(Instance instance, String feature) {
		return instance.context.getBean(MeterRegistry.class)
			.find("slipcase.redis.jdk.reads")
			.tag("feature", feature)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private static Map<String, byte[]> sessionValues(Browser browser) {
		Map<String, byte[]> values = new TreeMap<>();
		redis().hgetall(("spring:session:sessions:" + browser.sessionId()).getBytes(StandardCharsets.UTF_8))
			.forEach((field, value) -> values.put(new String(field, StandardCharsets.UTF_8), value));
		return values;
	}

	private static void set(String key, byte[] value) {
		redis().set(key.getBytes(StandardCharsets.UTF_8), value);
	}

	private static void hset(String key, String field, byte[] value) {
		redis().hset(key.getBytes(StandardCharsets.UTF_8), field.getBytes(StandardCharsets.UTF_8), value);
	}

	/** The fleet's Redis database, as bytes, for what the test itself reads and plants. */
	private static RedisCommands<byte[], byte[]> redis() {
		return connection.sync();
	}

	/** The trigger of the PriorityQueue gadget chains: its comparator runs as the queue is read. */
	static final class Trigger implements Comparator<Object>, Serializable {

		@Override
		public int compare(Object left, Object right) {
			System.setProperty(WITNESS, "compare ran");
			return 0;
		}

	}

	private static PriorityQueue<Object> gadget() {
		PriorityQueue<Object> queue = new PriorityQueue<>(new Trigger());
		queue.add("a");
		queue.add("b");
		System.clearProperty(WITNESS);
		return queue;
	}

	private static byte[] jdk(Object value) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(value);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return bytes.toByteArray();
	}

	private Instance start(boolean withStarter, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
				"spring.data.redis.host=" + redis.endpoint().host(), "spring.data.redis.port=" + redis.endpoint().port(),
				"spring.data.redis.database=" + DATABASE, "logging.level.root=WARN",
				// the 500s of the old instances are counted by the tests, not logged whole
				"logging.level.org.apache.catalina=OFF",
				"management.endpoints.web.exposure.include=health,slipcase"));
		if (!withStarter) {
			all.add("spring.autoconfigure.exclude=" + String.join(",", slipcaseAutoConfigurations()));
		}
		Collections.addAll(all, properties);
		Instance instance = new Instance(
				new SpringApplicationBuilder(FleetApp.class).properties(all.toArray(String[]::new)).run());
		this.instances.add(instance);
		return instance;
	}

	private static List<String> slipcaseAutoConfigurations() {
		try {
			List<String> names = new ArrayList<>();
			for (URL url : Collections.list(RollingDeployTests.class.getClassLoader()
				.getResources("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"))) {
				try (InputStream in = url.openStream()) {
					Stream.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
						.map(String::trim)
						.filter((line) -> line.startsWith("dev.slipcase."))
						.forEach(names::add);
				}
			}
			assertThat(names).isNotEmpty();
			return names;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** One running instance of the fleet app. */
	static final class Instance implements AutoCloseable {

		final ConfigurableApplicationContext context;

		final int port;

		Instance(ConfigurableApplicationContext context) {
			this.context = context;
			this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
		}

		@Override
		public void close() {
			this.context.close();
		}

	}

}
