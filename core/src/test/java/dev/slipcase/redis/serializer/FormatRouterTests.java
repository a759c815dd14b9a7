package dev.slipcase.redis.serializer;

import java.util.List;

import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FormatRouterTests {

	private final DeflateCompressor deflate = new DeflateCompressor();

	@Test
	void unannotatedTypesAreWrittenAsPlainJson() {
		FormatRouter router = FormatRouter.builder().build();
		byte[] bytes = router.serializer(Session.class).serialize(TestValues.session(1));
		assertThat(bytes[0]).isEqualTo((byte) '{');
	}

	@Test
	void theAnnotationChoosesTheFormatAndCompression() {
		FormatRouter router = FormatRouter.builder().compressors(this.deflate).build();
		Catalogue catalogue = catalogue();
		byte[] bytes = router.serializer(Catalogue.class).serialize(catalogue);
		assertThat(bytes[0] & 0xFF).isEqualTo(0xF8 | this.deflate.id());
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(router.serializer(Catalogue.class).deserialize(bytes)).isEqualTo(catalogue);
	}

	@Test
	void aRegistrationOverridesTheAnnotation() {
		FormatRouter router = FormatRouter.builder().register(Catalogue.class, FormatKind.JSON).build();
		byte[] bytes = router.serializer(Catalogue.class).serialize(catalogue());
		assertThat(bytes[0]).isEqualTo((byte) '{');
	}

	@Test
	void valuesWrittenBeforeATypesFormatChangedStayReadable() {
		FormatRouter before = FormatRouter.builder().register(Catalogue.class, FormatKind.JSON).build();
		byte[] old = before.serializer(Catalogue.class).serialize(catalogue());
		FormatRouter after = FormatRouter.builder().compressors(this.deflate).build();
		byte[] now = after.serializer(Catalogue.class).serialize(catalogue());
		assertThat(old[0]).isEqualTo((byte) '{');
		assertThat(now[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(after.serializer(Catalogue.class).deserialize(old)).isEqualTo(catalogue());
	}

	@Test
	void aJsonTypeStillReadsProtostuffWrittenByALaterChoice() {
		FormatRouter protostuff = FormatRouter.builder()
			.register(Order.class, new FormatRouter.Choice(FormatKind.PROTOSTUFF, null, 0))
			.build();
		byte[] bytes = protostuff.serializer(Order.class).serialize(TestValues.order(1));
		FormatRouter json = FormatRouter.builder().build();
		assertThat(json.serializer(Order.class).deserialize(bytes)).isEqualTo(TestValues.order(1));
	}

	@Test
	void genericTypesAreRoutedByTheirRawClass() {
		FormatRouter router = FormatRouter.builder()
			.register(List.class, new FormatRouter.Choice(FormatKind.PROTOSTUFF, "deflate", 0))
			.compressors(this.deflate)
			.build();
		SlipcaseRedisSerializer<List<Session>> serializer = router.serializer(new TypeReference<List<Session>>() {
		});
		List<Session> sessions = List.of(TestValues.session(1), TestValues.session(2));
		byte[] bytes = serializer.serialize(sessions);
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(serializer.deserialize(bytes)).isEqualTo(sessions);
	}

	@Test
	void oneRouteCallChoosesAFormatAndACompressorObjectWithTheDefaultThreshold() {
		FormatRouter router = FormatRouter.builder().route(Order.class, FormatKind.PROTOSTUFF, this.deflate).build();
		SlipcaseRedisSerializer<Order> serializer = router.serializer(Order.class);
		Order order = TestValues.order(7);
		byte[] bytes = serializer.serialize(order);
		assertThat(bytes[0] & 0xFF).isEqualTo(FormatHeader.MARKER | this.deflate.id());
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(serializer.deserialize(bytes)).isEqualTo(order);
		assertThat(router.choiceFor(Order.class).minCompressSize())
			.isEqualTo(SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE);
	}

	@Test
	void genericTypesAreRoutedByTheirFullType() {
		FormatRouter router = FormatRouter.builder()
			.route(new TypeReference<List<Session>>() {
			}, FormatKind.PROTOSTUFF)
			.build();
		byte[] sessions = router.serializer(new TypeReference<List<Session>>() {
		}).serialize(List.of(TestValues.session(1)));
		byte[] orders = router.serializer(new TypeReference<List<Order>>() {
		}).serialize(List.of(TestValues.order(1)));
		assertThat(sessions[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(orders[0]).isEqualTo((byte) '[');
	}

	@Test
	void aRouteForTheFullTypeWinsOverTheRawClass() {
		FormatRouter router = FormatRouter.builder()
			.route(List.class, FormatKind.PROTOSTUFF)
			.route(new TypeReference<List<Session>>() {
			}, FormatKind.JSON)
			.build();
		assertThat(router.serializer(new TypeReference<List<Session>>() {
		}).serialize(List.of(TestValues.session(1)))[0]).isEqualTo((byte) '[');
		assertThat(router.serializer(new TypeReference<List<Order>>() {
		}).serialize(List.of(TestValues.order(1)))[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
	}

	@Test
	void aCompressorGivenToARouteIsKeptWhenTheLookupIsSetAfterIt() {
		FormatRouter.Builder builder = FormatRouter.builder();
		FormatRouter router = builder.register(Order.class, new FormatRouter.Choice(FormatKind.JSON,
				builder.compressor(this.deflate), 0))
			.compressors(CompressorLookup.none())
			.build();
		Order order = TestValues.order(8);
		assertThat(router.serializer(Order.class).deserialize(router.serializer(Order.class).serialize(order)))
			.isEqualTo(order);
	}

	@Test
	void anUnregisteredCompressorIsNamed() {
		FormatRouter router = FormatRouter.builder().build();
		assertThatIllegalArgumentException().isThrownBy(() -> router.format(Catalogue.class))
			.withMessageContaining("compressor 'deflate' chosen for")
			.withMessageContaining("is not registered");
	}

	@Test
	void oneSerializerWritesEachAllowlistedTypeInItsOwnFormat() {
		TypeAllowlist allowlist = TypeAllowlist.builder()
			.allow("catalogue", Catalogue.class)
			.allow("session", Session.class)
			.build();
		SlipcaseRedisSerializer<Object> serializer = FormatRouter.builder()
			.compressors(this.deflate)
			.build()
			.serializer(allowlist);
		byte[] catalogue = serializer.serialize(catalogue());
		byte[] session = serializer.serialize(TestValues.session(1));
		assertThat(java.util.Arrays.copyOf(catalogue, 2))
			.containsExactly((byte) (FormatHeader.MARKER | 7), (byte) FormatHeader.POLYMORPHIC_PROTOSTUFF);
		assertThat(new String(session, java.nio.charset.StandardCharsets.UTF_8)).startsWith("[\"session\",{");
		assertThat(serializer.deserialize(catalogue)).isEqualTo(catalogue());
		assertThat(serializer.deserialize(session)).isEqualTo(TestValues.session(1));
	}

	@Test
	void oneSerializerReadsATypesOldFormatAfterItChanged() {
		TypeAllowlist allowlist = TypeAllowlist.builder().allow("catalogue", Catalogue.class).build();
		byte[] old = FormatRouter.builder()
			.register(Catalogue.class, FormatKind.JSON)
			.build()
			.serializer(allowlist)
			.serialize(catalogue());
		SlipcaseRedisSerializer<Object> now = FormatRouter.builder().compressors(this.deflate).build().serializer(allowlist);
		assertThat(old[0]).isEqualTo((byte) '[');
		assertThat(now.deserialize(old)).isEqualTo(catalogue());
	}

	@Test
	void polymorphicProtostuffRefusesIdsOutsideTheAllowlist() {
		TypeAllowlist allowlist = TypeAllowlist.builder().allow("session", Session.class).build();
		byte[] forged = { (byte) FormatHeader.MARKER, FormatHeader.POLYMORPHIC_PROTOSTUFF, 3, 'u', 'r', 'l', 10, 0 };
		org.assertj.core.api.Assertions
			.assertThatExceptionOfType(org.springframework.data.redis.serializer.SerializationException.class)
			.isThrownBy(() -> FormatRouter.builder().build().serializer(allowlist).deserialize(forged))
			.withMessageContaining("type id 'url' is not in the allowlist [session]");
	}

	@Test
	void aTypeThatChoosesProtostuffButCannotUseItIsNamed() {
		TypeAllowlist allowlist = TypeAllowlist.builder().allow("loose", Loose.class).build();
		assertThatIllegalArgumentException().isThrownBy(() -> FormatRouter.builder().build().format(allowlist))
			.withMessageContaining("type id 'loose' chooses protostuff, but protostuff cannot handle")
			.withMessageContaining("java.lang.Object");
	}

	@RedisFormat(FormatKind.PROTOSTUFF)
	record Loose(Object anything) {
	}

	private static Catalogue catalogue() {
		return new Catalogue(java.util.stream.IntStream.range(0, 50).mapToObj(TestValues::session).toList());
	}

	@RedisFormat(value = FormatKind.PROTOSTUFF, compression = "deflate", minCompressSize = 64)
	record Catalogue(List<Session> sessions) {
	}

}
