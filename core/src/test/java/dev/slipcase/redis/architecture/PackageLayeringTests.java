package dev.slipcase.redis.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Slipcase core's packages import one way: no cycle among them, no Spring Boot, and the layers
 * below never import the ones above (buffer, metrics and serializer below codec, the Lettuce
 * layer, the templates and the sharded template), and reactive callers use the same Lettuce layer
 * rather than Lettuce's reactive API.
 */
class PackageLayeringTests {

	private static final JavaClasses CORE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.slipcase.redis");

	@Test
	void noPackageCycles() {
		check(slices().matching("dev.slipcase.redis.(*)..").should().beFreeOfCycles());
	}

	@Test
	void coreNeverImportsSpringBoot() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot.."));
	}

	@Test
	void bufferImportsNothingOfSlipcase() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis.buffer..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.slipcase.redis.serializer..", "dev.slipcase.redis.codec..",
					"dev.slipcase.redis.template..", "dev.slipcase.redis.sharded..", "dev.slipcase.redis.metrics..",
					"dev.slipcase.redis.lettuce.."));
	}

	@Test
	void theObserverSpiImportsNothingItObserves() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis.metrics..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.slipcase.redis.serializer..", "dev.slipcase.redis.codec..",
					"dev.slipcase.redis.template..", "dev.slipcase.redis.sharded..", "dev.slipcase.redis.lettuce.."));
	}

	@Test
	void serializersImportNoCodecTemplateOrLettuceLayer() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis.serializer..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.slipcase.redis.codec..", "dev.slipcase.redis.template..",
					"dev.slipcase.redis.sharded..", "dev.slipcase.redis.lettuce.."));
	}

	@Test
	void codecsImportNoTemplate() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis.codec..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.slipcase.redis.template..", "dev.slipcase.redis.sharded..",
					"dev.slipcase.redis.lettuce.."));
	}

	@Test
	void theLettuceLayerImportsNoTemplate() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis.lettuce..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.slipcase.redis.template..", "dev.slipcase.redis.sharded..")
			.allowEmptyShould(true));
	}

	@Test
	void theTemplatesImportNotTheShardedTemplate() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis.template..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.slipcase.redis.sharded.."));
	}

	@Test
	void reactiveCallersGoThroughTheOneLettuceLayerNotLettucesReactiveApi() {
		// one command path: Reactor types wrap the lettuce layer's futures (ReactiveReplies), so the
		// reactive and the blocking templates share commands, codecs, coalescing and resend guards
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.lettuce.core.api.reactive..", "io.lettuce.core.cluster.api.reactive..",
					"io.lettuce.core.sentinel.api.reactive.."));
	}

	@Test
	void theReactiveShardedTemplateSendsNoCommandOfItsOwn() {
		// its calls are the byte store's, which the blocking template runs too: the store decides
		// every command, so the guarantees proven on one form hold for the other
		check(noClasses().that()
			.haveSimpleName("ReactiveShardedTemplate")
			.should()
			.dependOnClassesThat()
			.haveSimpleNameContaining("BucketScripts")
			.orShould()
			.dependOnClassesThat()
			.haveSimpleNameContaining("BinaryCommands")
			.orShould()
			.dependOnClassesThat()
			.haveSimpleNameContaining("Pipeline")
			.orShould()
			.dependOnClassesThat()
			.resideInAPackage("io.lettuce.."));
	}

	private static void check(ArchRule rule) {
		rule.check(CORE);
	}

}
