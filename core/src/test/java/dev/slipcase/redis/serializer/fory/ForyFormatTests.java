package dev.slipcase.redis.serializer.fory;

import java.math.BigDecimal;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.slipcase.redis.serializer.Buffers;
import dev.slipcase.redis.serializer.ForyGadget;
import dev.slipcase.redis.serializer.TestValues.Node;
import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Page;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.TestValues;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import org.apache.fory.Fory;
import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.Language;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ForyFormatTests {

	private final ForyFormat<Order> format = ForyFormat.of(Order.class);

	@ParameterizedTest
	@EnumSource(Buffers.class)
	void roundTripsARecordOnEveryKindOfBuffer(Buffers kind) {
		Order order = TestValues.order(1);
		byte[] bytes = kind.encode(this.format, order);
		for (Buffers readKind : Buffers.all()) {
			assertThat(readKind.with(bytes, this.format::decode)).as(readKind.name()).isEqualTo(order);
		}
	}

	@Test
	void roundTripsNullComponentsNullElementsAndEmptyOptionals() {
		Order order = TestValues.orderWithNulls(2);
		Order read = Buffers.POOLED_DIRECT.with(Buffers.POOLED_DIRECT.encode(this.format, order), this.format::decode);
		assertThat(read).isEqualTo(order);
		assertThat(read.lines()).hasSize(2).last().isNull();
		assertThat(read.note()).isEmpty();
	}

	@Test
	void roundTripsJavaTimeBigDecimalOptionalCollectionsAndMaps() {
		Everything value = new Everything(Instant.parse("2026-11-23T10:15:30.123456789Z"), LocalDate.of(2026, 2, 1),
				Duration.ofMillis(1500), new BigDecimal("1234567890.0123456789"), Optional.of("present"), Optional.empty(),
				new ArrayList<>(List.of("a", "b")), new TreeMap<>(Map.of("x", 1L, "y", 2L)), Map.of(), null);
		ForyFormat<Everything> everything = ForyFormat.of(Everything.class);
		assertThat(Buffers.UNPOOLED_HEAP.with(Buffers.UNPOOLED_HEAP.encode(everything, value), everything::decode))
			.isEqualTo(value);
	}

	@Test
	void roundTripsGenericRecordsThroughATypeReference() {
		ForyFormat<Page<Session>> pages = ForyFormat.of(new TypeReference<Page<Session>>() {
		});
		Page<Session> page = new Page<>(List.of(TestValues.session(1), TestValues.session(2)), 3, TestValues.session(1));
		assertThat(Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(pages, page), pages::decode)).isEqualTo(page);
	}

	@Test
	void roundTripsATopLevelListAndRecursiveRecords() {
		ForyFormat<List<Session>> lists = ForyFormat.of(new TypeReference<List<Session>>() {
		});
		List<Session> sessions = List.of(TestValues.session(1), TestValues.session(2));
		assertThat(Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(lists, sessions), lists::decode))
			.isEqualTo(sessions);
		ForyFormat<Node> nodes = ForyFormat.of(Node.class);
		Node tree = new Node("root", List.of(new Node("a", List.of()), new Node("b", List.of(new Node("c", List.of())))));
		assertThat(Buffers.POOLED_DIRECT.with(Buffers.POOLED_DIRECT.encode(nodes, tree), nodes::decode)).isEqualTo(tree);
	}

	@Test
	void aValueLargerThanTheRoomAheadIsWrittenWhole() {
		ForyFormat<List<Session>> lists = ForyFormat.of(new TypeReference<List<Session>>() {
		});
		List<Session> many = new ArrayList<>();
		for (int i = 0; i < 5_000; i++) {
			many.add(TestValues.session(i));
		}
		for (Buffers kind : Buffers.all()) {
			assertThat(kind.with(kind.encode(lists, many), lists::decode)).as(kind.name()).isEqualTo(many);
		}
	}

	@Test
	void classesOfOneSimpleNameAreRegisteredUnderTheirFullNames() {
		Twins twins = new Twins(new V1.Person("a", 1), new V2.Person("b", 2, List.of("x"), 3));
		assertThat(Buffers.POOLED_HEAP.encode(ForyFormat.of(Twins.class), twins)).satisfies((bytes) -> assertThat(
				Buffers.POOLED_DIRECT.with(bytes, ForyFormat.of(Twins.class)::decode)).isEqualTo(twins));
	}

	@Test
	void aJdkClassGivenOutrightIsRegistered() {
		TreeMap<String, Integer> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		headers.put("Accept", 1);
		ForyFormat<Headers> format = ForyFormat.of(Headers.class, List.of(String.CASE_INSENSITIVE_ORDER.getClass()));
		byte[] bytes = Buffers.POOLED_HEAP.encode(format, new Headers(headers));
		Headers read = Buffers.POOLED_HEAP.with(bytes, format::decode);
		assertThat(read.values()).containsEntry("ACCEPT", 1);
		assertThat(read.values().comparator()).isSameAs(String.CASE_INSENSITIVE_ORDER);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.encode(ForyFormat.of(Headers.class), new Headers(headers)))
			.withMessageContaining("CaseInsensitiveComparator");
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void virtualThreadsBorrowPooledInstancesRatherThanMakingOneEach() throws Exception {
		ForyFormat<Order> format = ForyFormat.of(Order.class);
		int made = format.instances();
		int threads = 200;
		ExecutorService virtualThreads = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
			.invoke(null);
		try {
			List<Future<Order>> reads = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				Order order = TestValues.order(i);
				reads.add(virtualThreads.submit(() -> Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(format, order),
						format::decode)));
			}
			for (int i = 0; i < threads; i++) {
				assertThat(reads.get(i).get()).isEqualTo(TestValues.order(i));
			}
		}
		finally {
			virtualThreads.shutdown();
		}
		assertThat(format.instances() - made).as("Fory instances made for " + threads + " virtual threads")
			.isEqualTo(Runtime.getRuntime().availableProcessors());
	}

	@Test
	void eachPlatformThreadHasAnInstanceOfItsOwn() throws Exception {
		ForyFormat<Order> format = ForyFormat.of(Order.class);
		int made = format.instances();
		Thread other = new Thread(() -> Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(format, TestValues.order(1)),
				format::decode));
		other.start();
		other.join();
		Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(format, TestValues.order(2)), format::decode);
		assertThat(format.instances() - made).isEqualTo(1);
	}

	@Test
	void isSmallerThanJson() {
		Order order = TestValues.order(1);
		assertThat(Buffers.POOLED_HEAP.encode(this.format, order).length)
			.isLessThan(Buffers.POOLED_HEAP.encode(JsonFormat.of(Order.class), order).length);
	}

	@Test
	void recordsMayGainComponentsAtTheEnd() {
		byte[] old = Buffers.POOLED_HEAP.encode(ForyFormat.of(V1.Person.class), new V1.Person("a", 7));
		V2.Person read = Buffers.POOLED_HEAP.with(old, ForyFormat.of(V2.Person.class)::decode);
		assertThat(read.name()).isEqualTo("a");
		assertThat(read.count()).isEqualTo(7);
		assertThat(read.total()).isZero();
	}

	@Test
	void olderReadersSkipComponentsTheyDoNotKnow() {
		byte[] newer = Buffers.POOLED_HEAP.encode(ForyFormat.of(V2.Person.class),
				new V2.Person("a", 7, List.of("x"), 3));
		assertThat(Buffers.POOLED_DIRECT.with(newer, ForyFormat.of(V1.Person.class)::decode))
			.isEqualTo(new V1.Person("a", 7));
	}

	@Test
	void aValueNamingAClassThatIsNotRegisteredFailsAndTheClassIsNeverInitialized() throws Exception {
		// the gadget is written by a permissive Fory from a copy of its class in a loader of its own, so
		// that only the decoder below could initialize the application's copy
		URL testClasses = ForyGadget.class.getProtectionDomain().getCodeSource().getLocation();
		byte[] payload;
		try (URLClassLoader isolated = new ChildFirstLoader(testClasses, ForyGadget.class.getName())) {
			Object gadget = isolated.loadClass(ForyGadget.class.getName()).getDeclaredConstructor().newInstance();
			Fory permissive = Fory.builder().withLanguage(Language.JAVA).requireClassRegistration(false)
				.withCompatibleMode(CompatibleMode.COMPATIBLE).withRefTracking(false).withClassLoader(isolated).build();
			payload = permissive.serialize(new Holder(gadget));
		}
		assertThat(System.clearProperty(ForyGadget.WITNESS)).as("the isolated copy ran").isEqualTo("initialized");
		ForyFormat<Holder> holders = ForyFormat.of(Holder.class);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(payload, holders::decode))
			.withMessageStartingWith("fory: ");
		assertThat(System.getProperty(ForyGadget.WITNESS)).as("the application's copy never ran").isNull();
	}

	@Test
	void aCollectionElementOfAClassThatIsNotRegisteredFailsRatherThanReadingAsAMap() {
		Fory writer = Fory.builder().withLanguage(Language.JAVA).requireClassRegistration(false)
			.withCompatibleMode(CompatibleMode.COMPATIBLE).withRefTracking(false).build();
		writer.register(Bag.class, "slipcase", "Bag");
		writer.register(Harmless.class, "slipcase", "Harmless");
		@SuppressWarnings({ "unchecked", "rawtypes" })
		Bag bag = new Bag((List) new ArrayList<Object>(List.of(new NotRegistered("rm -rf /"))));
		byte[] payload = writer.serialize(bag);
		ForyFormat<Bag> bags = ForyFormat.of(Bag.class);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(payload, bags::decode))
			.withMessageStartingWith("fory: ")
			.withMessageContaining("NotRegistered is not registered");
	}

	@Test
	void anObjectOfAClassThatIsNotRegisteredFails() {
		Fory writer = Fory.builder().withLanguage(Language.JAVA).requireClassRegistration(false)
			.withCompatibleMode(CompatibleMode.COMPATIBLE).withRefTracking(false).build();
		byte[] payload = writer.serialize(new NotRegistered("rm -rf /"));
		ForyFormat<Object> anything = ForyFormat.of(Object.class, List.of(Harmless.class));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(payload, anything::decode))
			.withMessageContaining("NotRegistered is not registered");
	}

	@Test
	void olderReadersRefuseANewComponentOfAClassTheyDoNotHave() {
		byte[] newer = Buffers.POOLED_HEAP.encode(ForyFormat.of(V3.Person.class),
				new V3.Person("a", 7, new V3.Badge("gold")));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(newer, ForyFormat.of(V1.Person.class)::decode))
			.withMessageContaining("Badge is not registered");
	}

	/** Loads one class itself, everything else from its parent. */
	private static final class ChildFirstLoader extends URLClassLoader {

		private final String isolated;

		ChildFirstLoader(URL classes, String isolated) {
			super(new URL[] { classes }, ForyFormatTests.class.getClassLoader());
			this.isolated = isolated;
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (!name.equals(this.isolated)) {
				return super.loadClass(name, resolve);
			}
			synchronized (getClassLoadingLock(name)) {
				Class<?> loaded = findLoadedClass(name);
				return (loaded != null) ? loaded : findClass(name);
			}
		}

	}

	@Test
	void aValueOfAnotherTypeIsRefused() {
		byte[] session = Buffers.POOLED_HEAP.encode(ForyFormat.of(Session.class), TestValues.session(1));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(session, this.format::decode))
			.withMessageStartingWith("fory: ");
	}

	@Test
	void roundTripsBehindTheSelfDescribingHeader() {
		SelfDescribingFormat<Order> described = SelfDescribingFormat.of(this.format);
		byte[] bytes = Buffers.POOLED_HEAP.encode(described, TestValues.order(4));
		assertThat(bytes[0] & 0xFF).isEqualTo(FormatHeader.MARKER);
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.FORY);
		assertThat(Buffers.POOLED_HEAP.with(bytes, described::decode)).isEqualTo(TestValues.order(4));
	}

	record Everything(Instant at, LocalDate day, Duration took, BigDecimal amount, Optional<String> present,
			Optional<String> absent, List<String> names, TreeMap<String, Long> counts, Map<String, Integer> empty,
			@Nullable String missing) {
	}

	/** Declares an interface field: what a permissive writer put there is not registered here. */
	record Holder(Object content) {
	}

	record Harmless(String name) {
	}

	record NotRegistered(String command) {
	}

	record Twins(V1.Person older, V2.Person newer) {
	}

	record Headers(TreeMap<String, Integer> values) {
	}

	record Bag(List<Harmless> items) {
	}

	static final class V3 {

		record Person(String name, int count, Badge badge) {
		}

		record Badge(String level) {
		}

	}

	static final class V1 {

		record Person(String name, int count) {
		}

	}

	static final class V2 {

		record Person(String name, int count, List<String> tags, long total) {
		}

	}

}
