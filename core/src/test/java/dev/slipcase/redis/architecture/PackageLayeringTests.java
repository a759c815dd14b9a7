package dev.slipcase.redis.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Slipcase core's packages import one way: each imports only those below it in {@link #LAYERS}
 * (no cycle, the Spring Data templates a leaf nobody imports), no Spring Boot, and reactive callers
 * use the same Lettuce layer rather than Lettuce's reactive API. Every package is in the list, so
 * a new one must be given its place.
 */
class PackageLayeringTests {

	/** Core's packages, bottom first: each may import those before it, never those after it. */
	static final List<String> LAYERS = List.of("buffer", "metrics", "serializer", "springdata", "codec", "lettuce",
			"near", "template", "sharded");

	/** Core's own classes, without the test fixture's ({@code dev.slipcase.redis.test}) on the class path. */
	private static final JavaClasses CORE = new ClassFileImporter().importPath(Path.of("target", "classes"));

	@Test
	void everyPackageHasItsPlace() {
		Set<String> packages = new TreeSet<>();
		for (JavaClass type : CORE) {
			String name = type.getPackageName().substring("dev.slipcase.redis.".length());
			int dot = name.indexOf('.');
			packages.add((dot < 0) ? name : name.substring(0, dot));
		}
		assertThat(packages).containsExactlyInAnyOrderElementsOf(LAYERS);
	}

	@Test
	void theReadmeListsThePackagesInTheirOrder() throws IOException {
		String readme = Files.readString(Path.of("..", "README.md"));
		int start = readme.indexOf("Packages of `slipcase-core`");
		assertThat(start).as("the README's package list").isNotNegative();
		String list = readme.substring(start, readme.indexOf("\n\n", start));
		List<String> named = new ArrayList<>();
		Matcher matcher = Pattern.compile("`([a-z]+)` \\(").matcher(list);
		while (matcher.find()) {
			named.add(matcher.group(1));
		}
		assertThat(named).isEqualTo(LAYERS);
	}

	@Test
	void noPackageCycles() {
		check(slices().matching("dev.slipcase.redis.(*)..").should().beFreeOfCycles());
	}

	@ParameterizedTest
	@MethodSource("layers")
	void eachPackageImportsOnlyThoseBelowIt(String layer) {
		List<String> above = LAYERS.subList(LAYERS.indexOf(layer) + 1, LAYERS.size());
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis." + layer + "..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(above.stream().map((name) -> "dev.slipcase.redis." + name + "..").toArray(String[]::new)));
	}

	@Test
	void nothingImportsTheSpringDataTemplates() {
		check(noClasses().that()
			.resideOutsideOfPackage("dev.slipcase.redis.springdata..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.slipcase.redis.springdata.."));
	}

	@Test
	void coreNeverImportsSpringBoot() {
		check(noClasses().that()
			.resideInAPackage("dev.slipcase.redis..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot.."));
	}

	/** Every layer but the top one, which imports whatever it needs. */
	static List<String> layers() {
		return LAYERS.subList(0, LAYERS.size() - 1);
	}

	@Test
	void theSerializerPackagesImportOneWay() {
		// format (what a format is built from) <- each format's folder <- the serializer package,
		// which builds families of formats; compression is below them all
		check(slices().matching("dev.slipcase.redis.serializer.(*)..").should().beFreeOfCycles());
		check(noClasses().that()
			.resideInAnyPackage("dev.slipcase.redis.serializer.*..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.slipcase.redis.serializer"));
		check(noClasses().that()
			.resideInAnyPackage("dev.slipcase.redis.serializer.format..", "dev.slipcase.redis.serializer.compression..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.slipcase.redis.serializer.fory..", "dev.slipcase.redis.serializer.json..",
					"dev.slipcase.redis.serializer.protostuff..", "dev.slipcase.redis.serializer.jdk.."));
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
