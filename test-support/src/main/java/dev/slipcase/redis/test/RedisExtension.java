package dev.slipcase.redis.test;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link RedisServer} and {@link RedisCluster} parameters of test constructors, test
 * methods and lifecycle methods to the JVM-wide shared instances of {@link RedisServers}.
 * <pre class="code">
 * &#64;ExtendWith(RedisExtension.class)
 * class OrderRepositoryTests {
 *     &#64;BeforeAll
 *     static void connect(RedisServer redis) { ... redis.endpoint().uri() ... }
 * }
 * </pre>
 * A test that needs a server of its own (to stop it, say) calls {@link RedisServers#start()}.
 */
public final class RedisExtension implements ParameterResolver {

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Class<?> type = parameterContext.getParameter().getType();
		return type == RedisServer.class || type == RedisCluster.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Class<?> type = parameterContext.getParameter().getType();
		return (type == RedisCluster.class) ? RedisServers.sharedCluster() : RedisServers.shared();
	}

}
