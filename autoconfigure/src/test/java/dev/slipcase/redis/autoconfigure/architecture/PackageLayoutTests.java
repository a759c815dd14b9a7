package dev.slipcase.redis.autoconfigure.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The auto-configuration is laid out as Spring Boot's is: the serializers' auto-configuration and
 * what every feature shares in the root package, each feature (cache, session, templates, sharded,
 * metrics, endpoint, AOT) in a package of its own that imports the root, never the other way, and
 * no package cycle.
 */
class PackageLayoutTests {

	private static final JavaClasses AUTOCONFIGURE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.slipcase.redis.autoconfigure");

	@Test
	void noPackageCycles() {
		slices().matching("dev.slipcase.redis.(**)").should().beFreeOfCycles().check(AUTOCONFIGURE);
	}

	@Test
	void theRootImportsNoFeaturePackage() {
		noClasses().that()
			.resideInAPackage("dev.slipcase.redis.autoconfigure")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.slipcase.redis.autoconfigure.*..")
			.check(AUTOCONFIGURE);
	}

}
