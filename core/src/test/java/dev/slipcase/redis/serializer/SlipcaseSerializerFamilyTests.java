package dev.slipcase.redis.serializer;

import java.util.List;

import dev.slipcase.redis.serializer.FormatRouter.Choice;
import dev.slipcase.redis.serializer.compression.GzipCompressor;
import dev.slipcase.redis.serializer.family.Catalogue;
import dev.slipcase.redis.serializer.family.Order;
import dev.slipcase.redis.serializer.family.Page;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SlipcaseSerializerFamilyTests {

	@Test
	void aRouteWinsOverTheAnnotation() {
		SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder()
			.allow("catalogue", Catalogue.class)
			.route(Catalogue.class, new Choice(FormatKind.JSON, null, 0))
			.build();
		assertThat(family.choiceFor(Catalogue.class).kind()).isEqualTo(FormatKind.JSON);
	}

	@Test
	void theAnnotationWinsOverTheDefault() {
		SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder()
			.allow("catalogue", Catalogue.class)
			.defaultChoice(new Choice(FormatKind.JSON, null, 0))
			.compressors(CompressorLookup.of(dev.slipcase.redis.serializer.compression.Compressors.zstd()))
			.build();
		assertThat(family.choiceFor(Catalogue.class)).isEqualTo(new Choice(FormatKind.PROTOSTUFF, "zstd", 16));
	}

	@Test
	void anOverrideWritesEveryTypeInItsFormatAndStillReadsTheOthers() {
		SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder()
			.allow("order", Order.class)
			.compressors(CompressorLookup.of(GzipCompressor.create()))
			.build();
		SlipcaseRedisSerializer<Object> protostuff = family.valueSerializer(FormatKind.PROTOSTUFF, "gzip");
		byte[] json = family.valueSerializer().serialize(Order.sample(1, null));
		byte[] binary = protostuff.serialize(Order.sample(1, null));
		assertThat(binary).isNotEqualTo(json);
		assertThat(protostuff.deserialize(json)).isEqualTo(Order.sample(1, null));
		assertThat(family.valueSerializer().deserialize(binary)).isEqualTo(Order.sample(1, null));
	}

	@Test
	void aGenericTypeKeepsItsTypeArguments() {
		SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder()
			.allow("order-page", new TypeReference<Page<Order>>() {
			})
			.build();
		Page<Order> page = new Page<>(List.of(Order.sample(1, null)), 1);
		Object read = family.valueSerializer().deserialize(family.valueSerializer().serialize(page));
		assertThat(read).isEqualTo(page);
		assertThat(((Page<?>) read).items().get(0)).isInstanceOf(Order.class);
	}

	@Test
	void aCompressorThatIsNotRegisteredIsRefused() {
		SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder().allow("order", Order.class).build();
		assertThatIllegalArgumentException().isThrownBy(() -> family.valueSerializer(null, "lz4"))
			.withMessageContaining("lz4");
	}

	@Test
	void anIdIsAllowedOnce() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SlipcaseSerializerFamily.builder().allow("order", Order.class).allow("order", Page.class))
			.withMessageContaining("'order'");
	}

	@Test
	void nullArgumentsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> SlipcaseSerializerFamily.builder().mapper(null))
			.withMessage("mapper must not be null");
	}

}
