package dev.slipcase.redis.serializer.jdk;

import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class JdkFormatTests {

	enum Status {
		OPEN, SHIPPED
	}

	record Line(String sku, int quantity, BigDecimal price) implements Serializable {
	}

	record Order(long id, String customer, Instant placed, LocalDate due, Status status, List<Line> lines,
			Map<String, Set<String>> tags, String note, Object anything) implements Serializable {
	}

	private static final JdkAllowlist ORDERS = JdkAllowlist.builder().allowJdkValueTypes().allowDeclared(Order.class)
		.build();

	private static final JdkSerializationRedisSerializer SPRING = new JdkSerializationRedisSerializer();

	private final List<String> loaded = new CopyOnWriteArrayList<>();

	private final ClassLoader recordingLoader = new ClassLoader(getClass().getClassLoader()) {

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			JdkFormatTests.this.loaded.add(name);
			return super.loadClass(name, resolve);
		}

	};

	@AfterEach
	void clearWitness() {
		System.clearProperty(JdkGadget.WITNESS);
	}

	private RedisSerializer<Object> serializer(JdkAllowlist allowlist, JdkLimits limits) {
		return SlipcaseRedisSerializer.of(JdkFormat.of(allowlist, limits, this.recordingLoader), Object.class);
	}

	private RedisSerializer<Object> orders() {
		return serializer(ORDERS, JdkLimits.DEFAULTS);
	}

	static Order order() {
		Map<String, Set<String>> tags = new LinkedHashMap<>();
		tags.put("gift", new HashSet<>(List.of("wrap")));
		return new Order(41, "ada", Instant.parse("2026-11-21T10:15:30.123456Z"), LocalDate.of(2026, 12, 1),
				Status.SHIPPED, List.of(new Line("sku-41", 2, new BigDecimal("19.99"))), tags, null, "anything");
	}

	@Test
	void readsWhatSpringDatasJdkSerializerWrote() {
		assertThat(orders().deserialize(SPRING.serialize(order()))).isEqualTo(order());
	}

	@Test
	void writesTheBytesSpringDatasJdkSerializerWrites() {
		byte[] written = orders().serialize(order());
		assertThat(written).isEqualTo(SPRING.serialize(order()));
		assertThat(JdkFormat.isJdkSerialized(written)).isTrue();
		assertThat(SPRING.deserialize(written)).isEqualTo(order());
	}

	@Test
	void theAllowlistHoldsTheDeclaredTypesAndWhatTheirFieldsDeclare() {
		assertThat(ORDERS.allows(Order.class.getName())).isTrue();
		assertThat(ORDERS.allows(Line.class.getName())).isTrue();
		assertThat(ORDERS.allows(Status.class.getName())).isTrue();
		assertThat(ORDERS.allows("[L" + Line.class.getName() + ";")).isTrue();
		assertThat(ORDERS.allows("[J")).isTrue();
		assertThat(ORDERS.allows(PriorityQueue.class.getName())).isFalse();
		assertThat(ORDERS.allows(JdkGadget.class.getName())).isFalse();
		assertThat(ORDERS.allows("[L" + JdkGadget.class.getName() + ";")).isFalse();
	}

	@Test
	void aClassOutsideTheAllowlistIsRefusedByNameAndNeverLoaded() {
		byte[] bytes = SPRING.serialize(new ArrayList<>(List.of(new JdkGadget())));
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessage("jdk: refused a value naming class " + JdkGadget.class.getName() + ", which is not allowed");
		assertThat(this.loaded).doesNotContain(JdkGadget.class.getName());
		assertThat(System.getProperty(JdkGadget.WITNESS)).isNull();
	}

	@Test
	void thePriorityQueueChainIsRefusedBeforeItsComparatorRuns() {
		PriorityQueue<Object> queue = new PriorityQueue<>(new JdkGadget.Trigger());
		queue.add("a");
		queue.add("b");
		System.clearProperty(JdkGadget.WITNESS);
		byte[] bytes = SPRING.serialize(queue);
		JdkAllowlist withQueue = JdkAllowlist.builder().allowJdkValueTypes().allow(PriorityQueue.class).build();
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> serializer(withQueue, JdkLimits.DEFAULTS).deserialize(bytes))
			.withMessageContaining("refused a value naming class " + JdkGadget.Trigger.class.getName());
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessageContaining("refused a value naming class java.util.PriorityQueue");
		assertThat(System.getProperty(JdkGadget.WITNESS)).isNull();
	}

	@Test
	void aProxyIsRefused() {
		Object proxy = Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Runnable.class },
				(InvocationHandler & Serializable) (target, method, args) -> null);
		byte[] bytes = SPRING.serialize(new ArrayList<>(List.of(proxy)));
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessageStartingWith("jdk: refused a proxy class (of java.lang.Runnable)");
	}

	@Test
	void aGraphNestedDeeperThanTheLimitIsRefused() {
		Object nested = "leaf";
		for (int i = 0; i < 30; i++) {
			nested = new ArrayList<>(List.of(nested));
		}
		byte[] bytes = SPRING.serialize(nested);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessage("jdk: refused a value nested deeper than 20 objects");
	}

	@Test
	void nestedSetsThatWouldHashForeverAreRefusedByDepth() {
		// SerialDOS: each level holds the next two sets, so reading one hashes 2^levels times
		Set<Object> root = new HashSet<>();
		Set<Object> left = root;
		Set<Object> right = new HashSet<>();
		for (int i = 0; i < 60; i++) {
			Set<Object> nextLeft = new HashSet<>();
			Set<Object> nextRight = new HashSet<>();
			nextLeft.add("x" + i);
			left.add(nextLeft);
			left.add(nextRight);
			right.add(nextLeft);
			right.add(nextRight);
			left = nextLeft;
			right = nextRight;
		}
		byte[] bytes = SPRING.serialize(root);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessage("jdk: refused a value nested deeper than 20 objects");
	}

	@Test
	void anArrayLongerThanTheBytesLeftIsRefusedBeforeItIsAllocated() {
		byte[] bytes = SPRING.serialize(new byte[8]);
		// the array's length field stands just before its 8 bytes: claim 2^31 - 1 elements
		int length = bytes.length - 12;
		bytes[length] = 0x7F;
		bytes[length + 1] = (byte) 0xFF;
		bytes[length + 2] = (byte) 0xFF;
		bytes[length + 3] = (byte) 0xFF;
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessageStartingWith("jdk: refused an array of 2147483647 elements in a value with");
	}

	@Test
	void aCollectionClaimingMoreElementsThanTheValueHoldsIsRefused() {
		byte[] bytes = SPRING.serialize(new ArrayList<>(List.of("a", "b")));
		// ArrayList writes its size twice (the size field, then the capacity); both claim 65,538
		int[] sizes = IntStream.range(0, bytes.length - 4)
			.filter((i) -> bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 0 && bytes[i + 3] == 2)
			.toArray();
		assertThat(sizes).hasSize(2);
		for (int at : sizes) {
			bytes[at + 1] = 1;
		}
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessageStartingWith("jdk: refused an array of 65538 elements in a value with");
	}

	@Test
	void aValueHoldingMoreReferencesThanTheLimitIsRefused() {
		List<Long> numbers = IntStream.range(0, 200).mapToObj((i) -> Long.valueOf(1000 + i)).toList();
		byte[] bytes = SPRING.serialize(new ArrayList<>(numbers));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> serializer(ORDERS, new JdkLimits(20, 100, 1 << 20)).deserialize(bytes))
			.withMessage("jdk: refused a value holding more than 100 objects and references");
	}

	@Test
	void aValueLongerThanTheLimitIsRefusedUnread() {
		byte[] bytes = SPRING.serialize(order());
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> serializer(ORDERS, new JdkLimits(20, 100, 64)).deserialize(bytes))
			.withMessage("jdk: refused a value of " + bytes.length + " bytes, over the limit of 64");
		assertThat(this.loaded).isEmpty();
	}

	@Test
	void aTruncatedValueSaysSo() {
		byte[] bytes = SPRING.serialize(order());
		byte[] truncated = Arrays.copyOf(bytes, bytes.length / 2);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(truncated))
			.withMessageStartingWith("jdk: cannot decode value: the value ends early");
	}

	@Test
	void bytesWithoutTheStreamHeaderAreNotJdkSerialized() {
		assertThat(JdkFormat.isJdkSerialized("{\"id\":1}".getBytes())).isFalse();
		assertThat(JdkFormat.isJdkSerialized(new byte[] { (byte) 0xAC, (byte) 0xED, 0 })).isFalse();
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> orders().deserialize("{\"id\":1}".getBytes()))
			.withMessage("jdk: not a JDK-serialized value (no stream header)");
	}

	@Test
	void aValueThatIsNotSerializableCannotBeWritten() {
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().serialize(new Object()))
			.withMessage("jdk: cannot encode a java.lang.Object, which is not Serializable");
	}

	@Test
	void everyJdkValueAndCollectionTheAllowlistNamesRoundTrips() {
		Map<String, Integer> hashMap = new java.util.HashMap<>(Map.of("a", 1));
		java.util.TreeMap<String, Integer> caseInsensitive = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		caseInsensitive.put("B", 2);
		java.util.TreeSet<String> reversed = new java.util.TreeSet<>(java.util.Collections.reverseOrder());
		reversed.addAll(List.of("a", "b"));
		java.util.EnumMap<Status, String> enumMap = new java.util.EnumMap<>(Status.class);
		enumMap.put(Status.OPEN, "o");
		List<Object> values = List.of("text", true, (byte) 1, (short) 2, 3, 4L, 5f, 6d, 'c', new BigDecimal("7.5"),
				java.math.BigInteger.TEN, Instant.parse("2026-11-28T10:00:00Z"), LocalDate.of(2026, 11, 28),
				java.time.LocalTime.NOON, java.time.LocalDateTime.of(2026, 11, 28, 12, 0),
				java.time.OffsetDateTime.parse("2026-11-28T12:00:00+01:00"),
				java.time.ZonedDateTime.parse("2026-11-28T12:00:00+01:00[Europe/Paris]"), java.time.Duration.ofSeconds(9),
				java.time.Period.ofDays(3), java.time.Year.of(2026), java.time.YearMonth.of(2026, 11),
				java.time.MonthDay.of(11, 28), java.time.ZoneOffset.UTC, java.time.ZoneId.of("Europe/Paris"),
				java.util.UUID.randomUUID(), java.util.Locale.FRANCE, new java.util.Date(0),
				java.util.Currency.getInstance("EUR"), java.net.URI.create("https://example.com/x"),
				new ArrayList<>(List.of(1)), new java.util.LinkedList<>(List.of(1)),
				hashMap, new java.util.LinkedHashMap<>(hashMap), caseInsensitive, new HashSet<>(Set.of(1)),
				new java.util.LinkedHashSet<>(Set.of(1)), reversed, enumMap, java.util.EnumSet.of(Status.OPEN),
				List.of(1), List.of(1, 2, 3), Set.of(1), Set.of(1, 2, 3), Map.of("a", 1), Map.of("a", 1, "b", 2),
				Arrays.asList(1, 2), java.util.Collections.unmodifiableList(new ArrayList<>(List.of(1))),
				java.util.Collections.unmodifiableList(new java.util.LinkedList<>(List.of(1))),
				java.util.Collections.unmodifiableSet(new HashSet<>(Set.of(1))),
				java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(Set.of(1))),
				java.util.Collections.unmodifiableMap(hashMap),
				java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(hashMap)),
				java.util.Collections.unmodifiableCollection(new ArrayList<>(List.of(1))),
				java.util.Collections.emptyList(), java.util.Collections.emptySet(), java.util.Collections.emptyMap(),
				java.util.Collections.singletonList(1), java.util.Collections.singleton(1),
				java.util.Collections.singletonMap("a", 1), new CopyOnWriteArrayList<>(List.of(1)),
				new java.util.ArrayDeque<>(List.of(1)), new long[] { 1 }, new String[] { "a" });
		JdkAllowlist jdkOnly = JdkAllowlist.builder().allowJdkValueTypes().allow(Status.class).build();
		for (Object value : values) {
			Object read = serializer(jdkOnly, JdkLimits.DEFAULTS).deserialize(SPRING.serialize(value));
			if (value.getClass().isArray()) {
				assertThat(read).as(value.getClass().getName()).isEqualTo(value);
			}
			else if (value instanceof java.util.Collection<?> collection && !(value instanceof List)
					&& !(value instanceof Set)) {
				// a deque and an unmodifiable collection compare by identity
				assertThat(new ArrayList<Object>((java.util.Collection<?>) read)).as(value.getClass().getName())
					.isEqualTo(new ArrayList<Object>(collection));
			}
			else {
				assertThat(read).as(value.getClass().getName()).isEqualTo(value);
			}
		}
	}

	@Test
	void setsThatShareTheirMembersAreRefusedBeforeHashingThemTakesForever() {
		// 8 levels of 4 sets, each set holding all 4 sets of the level below: about 130 objects,
		// whose hash code takes 4^8 steps; at 18 levels it takes 4^18
		List<Set<Object>> below = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			below.add(new HashSet<>(Set.of(-i - 1)));
		}
		for (int level = 0; level < 8; level++) {
			List<Set<Object>> above = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				Set<Object> set = new HashSet<>(below);
				set.add(level * 4 + i);
				above.add(set);
			}
			below = above;
		}
		byte[] bytes = SPRING.serialize(below.get(0));
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessage("jdk: refused a value whose shared parts expand to more than 10000 objects");
	}

	@Test
	void nestedArraysThatTogetherClaimMoreThanTheValueHoldsAreRefused() {
		byte[] bytes = SPRING.serialize(new Object[] { new Object[] { new Object[] { "x".repeat(1000) } } });
		// each array's length (1) follows its class descriptor: in full (ending TC_ENDBLOCKDATA,
		// TC_NULL) for the first, by back-reference (TC_REFERENCE to handle 0) for the others
		ByteBuffer stream = ByteBuffer.wrap(bytes);
		List<Integer> lengths = IntStream.range(5, bytes.length - 4)
			.filter((i) -> stream.getInt(i) == 1 && ((bytes[i - 2] == 0x78 && bytes[i - 1] == 0x70)
					|| (bytes[i - 5] == 0x71 && stream.getInt(i - 4) == 0x007E0000)))
			.boxed()
			.toList();
		assertThat(lengths).hasSize(3);
		int claim = bytes.length - 100;
		lengths.forEach((at) -> stream.putInt(at, claim));
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> orders().deserialize(bytes))
			.withMessage("jdk: refused arrays of " + 3 * claim + " elements in all in a value of " + bytes.length
					+ " bytes");
	}

}
