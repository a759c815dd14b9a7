package dev.slipcase.redis.autoconfigure.session;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.slipcase.redis.serializer.JsonFormat;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;

import org.springframework.security.jackson.SecurityJacksonModules;
import org.springframework.util.ClassUtils;

/**
 * The JSON session values are written in: type information on every non-final
 * value ({@code "@class"}), validated on read against the application's allowed value types, the
 * JDK's value and collection types, and, when Spring Security is on the class path, its own types
 * through its Jackson modules ({@code SecurityJacksonModules}), so that a logged-in session's
 * {@code SecurityContext} round-trips.
 */
public final class SessionFormats {

	private static final String SECURITY_MODULES = "org.springframework.security.jackson.SecurityJacksonModules";

	private SessionFormats() {
	}

	static JsonMapper mapper(SlipcaseSerializerFamily family, ClassLoader classLoader) {
		BasicPolymorphicTypeValidator.Builder types = BasicPolymorphicTypeValidator.builder();
		family.allowlist().types().values().forEach((type) -> types.allowIfSubType(type.getRawClass()));
		for (Class<?> jdkType : List.of(java.util.Collection.class, java.util.Map.class, Number.class, String.class,
				Boolean.class, java.time.temporal.Temporal.class, java.util.Locale.class, java.util.UUID.class)) {
			types.allowIfSubType(jdkType);
		}
		JsonMapper.Builder builder = JsonMapper.builder();
		if (ClassUtils.isPresent(SECURITY_MODULES, classLoader)) {
			return Security.withModules(builder, classLoader, types);
		}
		return builder.activateDefaultTyping(types.build(), DefaultTyping.NON_FINAL, JsonTypeInfo.As.PROPERTY).build();
	}

	/**
	 * JSON for session values: any value, typed by {@code "@class"} where it is not final, read
	 * back only as an allowed type (see {@link #mapper}).
	 */
	public static JsonFormat<Object> json(SlipcaseSerializerFamily family, ClassLoader classLoader) {
		JsonMapper mapper = mapper(family, classLoader);
		return JsonFormat.of(mapper, mapper.constructType(Object.class));
	}

	/** Spring Security's modules; loaded only when Spring Security is present. */
	private static final class Security {

		static JsonMapper withModules(JsonMapper.Builder builder, ClassLoader classLoader,
				BasicPolymorphicTypeValidator.Builder types) {
			return builder.addModules(SecurityJacksonModules.getModules(classLoader, types)).build();
		}

	}

}
