package dev.slipcase.redis.autoconfigure.aot;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.autoconfigure.annotated.Catalogue;
import dev.slipcase.redis.autoconfigure.fixtures.Order;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native-image hints Slipcase contributes, through {@code META-INF/spring/aot.factories},
 * when Spring processes an application context ahead of time.
 */
class SlipcaseAotHintsTests {

	@Test
	void theTypesCachedMethodsReturnAreReflectableWithTheirNestedTypes() {
		RuntimeHints hints = processAheadOfTime((context) -> context.registerBean(Shop.class));
		assertThat(RuntimeHintsPredicates.reflection().onType(Order.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Order.Line.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Receipt.class)).accepts(hints);
	}

	@Test
	void configuredValueTypesAreReflectable() {
		RuntimeHints hints = processAheadOfTime((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("slipcase.redis.types.receipt.type", Receipt.class.getName()))));
		assertThat(RuntimeHintsPredicates.reflection().onType(Receipt.class)).accepts(hints);
	}

	@Test
	void annotatedTypesInTheApplicationsPackagesAreReflectable() {
		RuntimeHints hints = processAheadOfTime((context) -> AutoConfigurationPackages.register(context,
				Catalogue.class.getPackageName()));
		assertThat(RuntimeHintsPredicates.reflection().onType(Catalogue.class)).accepts(hints);
	}

	@Test
	void theCompressorsNativeLibrariesAreResources() {
		RuntimeHints hints = new RuntimeHints();
		new SlipcaseRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.resource().forResource("linux/amd64/libzstd-jni-1.5.7-6.so")).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("net/jpountz/util/linux/amd64/liblz4-java.so"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(dev.slipcase.redis.autoconfigure.SlipcaseConfigurationFailureAnalyzer.class)).accepts(hints);
	}

	private RuntimeHints processAheadOfTime(java.util.function.Consumer<GenericApplicationContext> setup) {
		GenericApplicationContext context = new GenericApplicationContext();
		setup.accept(context);
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get("dev.slipcase.redis.aot.test", "App")), new InMemoryGeneratedFiles());
		new ApplicationContextAotGenerator().processAheadOfTime(context, generationContext);
		return generationContext.getRuntimeHints();
	}

	/** Caches orders and a generic list of receipts. */
	static class Shop {

		@Cacheable("orders")
		public Order order(long id) {
			return Order.sample(id, null);
		}

		@Cacheable("receipts")
		public List<Receipt> receipts(String customer) {
			return List.of(new Receipt(customer, BigDecimal.ONE));
		}

	}

	/** A receipt, found only as a type argument of a cached method's return type. */
	record Receipt(String customer, BigDecimal total) {
	}

}
