package dev.slipcase.redis.autoconfigure.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.jdk.JdkAllowlist;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.fory.resolver.TypeResolver;
import org.apache.fory.serializer.Serializer;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;

import org.springframework.security.authentication.AccountExpiredException;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.CredentialsExpiredException;
import org.springframework.security.authentication.DisabledException;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.authentication.ProviderNotFoundException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.jackson.SecurityJacksonModules;
import org.springframework.util.ClassUtils;

/**
 * The formats session values are written in, each holding any value a session stores: the
 * application's allowed value types, the JDK's value and collection types, and, when Spring
 * Security is on the class path, the types it keeps in a session (the security context, its
 * authentication tokens, users and authorities, the saved request, the last authentication
 * failure), so that a logged-in session round-trips.
 * <ul>
 * <li>{@link #json}: type information on every non-final value ({@code "@class"}), validated on
 * read; Spring Security's types through its own Jackson modules ({@code SecurityJacksonModules}).</li>
 * <li>{@link #fory}: Apache Fory with those classes registered; any other class is refused.</li>
 * </ul>
 */
public final class SessionFormats {

	private static final String SECURITY_MODULES = "org.springframework.security.jackson.SecurityJacksonModules";

	/**
	 * The Spring Security classes a form, basic, remember-me, anonymous, pre-authenticated,
	 * switch-user or one-time-token login keeps in a session, registered with Fory when present: the
	 * ones spring-security-core's and -web's Jackson modules give mix-ins for, the security context,
	 * and the comparator a {@code User}'s sorted authorities carry. Authentication failures are
	 * registered apart, with a serializer of their own ({@link Security#failures()}).
	 */
	private static final List<String> SECURITY_SESSION_CLASSES = List.of(
			"org.springframework.security.core.context.SecurityContextImpl",
			"org.springframework.security.authentication.UsernamePasswordAuthenticationToken",
			"org.springframework.security.authentication.AnonymousAuthenticationToken",
			"org.springframework.security.authentication.RememberMeAuthenticationToken",
			"org.springframework.security.authentication.TestingAuthenticationToken",
			"org.springframework.security.authentication.ott.OneTimeTokenAuthentication",
			"org.springframework.security.core.userdetails.User",
			"org.springframework.security.core.userdetails.User$AuthorityComparator",
			"org.springframework.security.core.authority.SimpleGrantedAuthority",
			"org.springframework.security.core.authority.FactorGrantedAuthority",
			"org.springframework.security.web.authentication.WebAuthenticationDetails",
			"org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken",
			"org.springframework.security.web.authentication.switchuser.SwitchUserGrantedAuthority",
			"org.springframework.security.web.savedrequest.DefaultSavedRequest",
			"org.springframework.security.web.savedrequest.SavedCookie",
			"org.springframework.security.web.csrf.DefaultCsrfToken");

	/**
	 * Spring Security modules that keep types of their own in a session, which the Fory format
	 * does not register, each by a class only that module has.
	 */
	private static final Map<String, String> UNCOVERED_MODULES = Map.of(
			"OAuth2 client and login", "org.springframework.security.oauth2.client.OAuth2AuthorizedClient",
			"OAuth2 authorization server", "org.springframework.security.oauth2.server.authorization.OAuth2Authorization",
			"SAML2", "org.springframework.security.saml2.provider.service.authentication.Saml2Authentication",
			"CAS", "org.springframework.security.cas.authentication.CasAuthenticationToken",
			"LDAP", "org.springframework.security.ldap.userdetails.LdapUserDetailsImpl");

	private static final Log logger = LogFactory.getLog(SessionFormats.class);

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

	/**
	 * Fory for session values: any value of an allowed type, a JDK type Fory knows (and
	 * {@code String.CASE_INSENSITIVE_ORDER}), or, when Spring Security is present, one of
	 * {@link #SECURITY_SESSION_CLASSES}; a value naming any other class is refused.
	 */
	public static ForyFormat<Object> fory(SlipcaseSerializerFamily family, ClassLoader classLoader) {
		List<Class<?>> classes = new ArrayList<>();
		family.allowlist().types().values().forEach((type) -> classes.add(type.getRawClass()));
		for (String name : SECURITY_SESSION_CLASSES) {
			if (ClassUtils.isPresent(name, classLoader)) {
				classes.add(ClassUtils.resolveClassName(name, classLoader));
			}
		}
		// the order of a saved request's headers, and of any case-insensitive map a session holds
		classes.add(String.CASE_INSENSITIVE_ORDER.getClass());
		if (!ClassUtils.isPresent(SECURITY_MODULES, classLoader)) {
			return ForyFormat.of(Object.class, classes);
		}
		warnOfUncoveredModules(classLoader);
		Map<Class<?>, Function<TypeResolver, Serializer<?>>> failures = Security.failures();
		classes.addAll(failures.keySet());
		return ForyFormat.of(Object.class, classes, failures);
	}

	/**
	 * {@code allowlist} with the classes a JDK-serialized session may hold added: Spring
	 * Security's session types and what their fields declare, the authentication failures a login
	 * keeps, and the JDK's exception types they bring, when Spring Security is present.
	 */
	public static JdkAllowlist jdkAllowlist(JdkAllowlist.Builder allowlist, ClassLoader classLoader) {
		for (String name : SECURITY_SESSION_CLASSES) {
			if (ClassUtils.isPresent(name, classLoader)) {
				allowlist.allowDeclared(ClassUtils.resolveClassName(name, classLoader));
			}
		}
		if (ClassUtils.isPresent(SECURITY_MODULES, classLoader)) {
			allowlist.allowJdkThrowables();
			Security.failures().keySet().forEach(allowlist::allowDeclared);
		}
		return allowlist.build();
	}

	private static void warnOfUncoveredModules(ClassLoader classLoader) {
		UNCOVERED_MODULES.forEach((module, marker) -> {
			if (ClassUtils.isPresent(marker, classLoader)) {
				logger.warn("slipcase.redis.session.format=fory: Spring Security's " + module + " support is on the "
						+ "class path, and the Fory session format does not register the types it keeps in a session; "
						+ "a login through it would fail to save its session. Set slipcase.redis.session.format=json "
						+ "if the application logs users in that way.");
			}
		});
	}

	/** Spring Security's modules and failures; loaded only when Spring Security is present. */
	private static final class Security {

		/**
		 * The authentication failures a login keeps in a session, each written as its message
		 * alone (see {@link AuthenticationExceptionForySerializer}).
		 */
		static Map<Class<?>, Function<TypeResolver, Serializer<?>>> failures() {
			Map<Class<?>, Function<TypeResolver, Serializer<?>>> failures = new LinkedHashMap<>();
			failure(failures, BadCredentialsException.class, BadCredentialsException::new);
			failure(failures, LockedException.class, LockedException::new);
			failure(failures, DisabledException.class, DisabledException::new);
			failure(failures, AccountExpiredException.class, AccountExpiredException::new);
			failure(failures, CredentialsExpiredException.class, CredentialsExpiredException::new);
			failure(failures, UsernameNotFoundException.class, UsernameNotFoundException::new);
			failure(failures, InternalAuthenticationServiceException.class, InternalAuthenticationServiceException::new);
			failure(failures, AuthenticationServiceException.class, AuthenticationServiceException::new);
			failure(failures, ProviderNotFoundException.class, ProviderNotFoundException::new);
			failure(failures, InsufficientAuthenticationException.class, InsufficientAuthenticationException::new);
			return failures;
		}

		private static <E extends AuthenticationException> void failure(
				Map<Class<?>, Function<TypeResolver, Serializer<?>>> failures, Class<E> type,
				Function<String, E> create) {
			failures.put(type, (resolver) -> new AuthenticationExceptionForySerializer<>(resolver.getConfig(), type, create));
		}

		static JsonMapper withModules(JsonMapper.Builder builder, ClassLoader classLoader,
				BasicPolymorphicTypeValidator.Builder types) {
			return builder.addModules(SecurityJacksonModules.getModules(classLoader, types)).build();
		}

	}

}
