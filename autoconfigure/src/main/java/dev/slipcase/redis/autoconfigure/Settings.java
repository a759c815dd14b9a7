package dev.slipcase.redis.autoconfigure;

import java.util.Locale;

import dev.slipcase.redis.serializer.FormatKind;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Reads and checks {@code slipcase.redis.*} values the auto-configurations share, failing with a
 * {@link SlipcaseConfigurationException} that names the property.
 */
public final class Settings {

	static final String PROTOSTUFF_CLASS = "io.protostuff.runtime.RuntimeSchema";

	static final String FORY_CLASS = "org.apache.fory.Fory";

	private Settings() {
	}

	/** A compression setting's algorithm, or {@code null} for none ({@code "none"} or blank). */
	public static @Nullable String compressionOrNull(@Nullable String name) {
		if (name == null) {
			return null;
		}
		String trimmed = name.trim().toLowerCase(Locale.ROOT);
		return (trimmed.isEmpty() || "none".equals(trimmed)) ? null : trimmed;
	}

	/** Fails when {@code format} is Protostuff or Fory and its library is not on the class path. */
	public static void requireFormatLibrary(@Nullable FormatKind format, String property, ClassLoader classLoader) {
		if (format == FormatKind.PROTOSTUFF && !ClassUtils.isPresent(PROTOSTUFF_CLASS, classLoader)) {
			throw new SlipcaseConfigurationException(property,
					"The protostuff format is configured but io.protostuff:protostuff-runtime is not on the classpath",
					"Add the io.protostuff:protostuff-runtime and protostuff-core dependencies (the Slipcase starter "
							+ "brings them), or set " + property + " to json.",
					null);
		}
		if (format == FormatKind.FORY && !ClassUtils.isPresent(FORY_CLASS, classLoader)) {
			throw new SlipcaseConfigurationException(property,
					"The fory format is configured but org.apache.fory:fory-core is not on the classpath",
					"Add the org.apache.fory:fory-core dependency (the Slipcase starter brings it), or set " + property
							+ " to json.",
					null);
		}
	}

	/** {@code bytes} as an {@code int}, or a failure naming {@code property}. */
	public static int toInt(long bytes, String property) {
		if (bytes < 0 || bytes > Integer.MAX_VALUE) {
			throw new SlipcaseConfigurationException(property, "Size " + bytes + " bytes is out of range",
					"Set " + property + " between 0 and 2GB.", null);
		}
		return (int) bytes;
	}

	/** The class loader application classes are loaded with. */
	public static ClassLoader classLoader(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableBeanFactory configurable && configurable.getBeanClassLoader() != null) {
			return configurable.getBeanClassLoader();
		}
		return ClassUtils.getDefaultClassLoader();
	}

}
