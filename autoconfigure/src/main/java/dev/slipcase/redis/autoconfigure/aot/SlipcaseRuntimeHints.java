package dev.slipcase.redis.autoconfigure.aot;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What a native image needs of Slipcase whatever the application stores: the native libraries
 * zstd-jni and lz4-java load from their jars, and the failure analyzer Boot instantiates from
 * {@code spring.factories}. The application's own value types are registered by
 * {@link SlipcaseValueTypesAotProcessor}.
 */
public final class SlipcaseRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		// zstd-jni: <os>/<arch>/libzstd-jni-<version>.so (and .dylib, .dll); lz4-java:
		// net/jpountz/util/<os>/<arch>/liblz4-java.so
		hints.resources().registerPattern("*/*/libzstd-jni*");
		hints.resources().registerPattern("net/jpountz/util/*/*/liblz4-java*");
		hints.reflection()
			.registerType(TypeReference.of("dev.slipcase.redis.autoconfigure.SlipcaseConfigurationFailureAnalyzer"),
					MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
	}

}
