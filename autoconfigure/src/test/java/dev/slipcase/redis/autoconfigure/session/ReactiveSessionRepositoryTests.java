package dev.slipcase.redis.autoconfigure.session;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.core.ResolvableType;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.session.ReactiveSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.config.ReactiveSessionRepositoryCustomizer;
import org.springframework.session.data.redis.ReactiveRedisSessionRepository;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux sessions through Slipcase: Spring Session's {@link ReactiveRedisSessionRepository}, made
 * as its WebFlux configuration makes it (a reactive template whose values use the
 * {@code springSessionDefaultRedisSerializer}) and customized by the starter's customizer, against
 * a real Redis: a logged-in security context stored as Slipcase's JSON and read back, and a
 * session holding a value it cannot read is absent (and deleted), not an error.
 */
class ReactiveSessionRepositoryTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final RedisServer redis = RedisServers.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseRedisAutoConfiguration.class,
				SlipcaseSessionAutoConfiguration.class))
		.withPropertyValues(RedisProperties.of(this.redis));

	@BeforeEach
	void flush() {
		this.redis.flushAll();
	}

	@Test
	void aLoggedInSessionIsStoredAsSlipcaseJsonAndReadBack() {
		this.runner.run((context) -> {
			ReactiveSessionRepository<Session> repository = repository(context);
			Session session = repository.createSession().block(WAIT);
			SecurityContextImpl security = new SecurityContextImpl(UsernamePasswordAuthenticationToken
				.authenticated("ada", null, AuthorityUtils.createAuthorityList("ROLE_USER")));
			session.setAttribute("SPRING_SECURITY_CONTEXT", security);
			repository.save(session).block(WAIT);
			String stored = (String) this.redis.command("HGET", "spring:session:sessions:" + session.getId(),
					"sessionAttr:SPRING_SECURITY_CONTEXT");
			assertThat(stored).startsWith("{\"@class\":").contains("\"ada\"");
			assertThat(repository.findById(session.getId()).block(WAIT).<SecurityContextImpl>getAttribute(
					"SPRING_SECURITY_CONTEXT"))
				.isEqualTo(security);
		});
	}

	@Test
	void aSessionWithAValueSlipcaseCannotReadIsAbsentAndDeleted() {
		this.runner.run((context) -> {
			ReactiveSessionRepository<Session> repository = repository(context);
			Session session = repository.createSession().block(WAIT);
			session.setAttribute("cart", "three books");
			repository.save(session).block(WAIT);
			String key = "spring:session:sessions:" + session.getId();
			// bytes in no format Slipcase reads, as JDK serialization from before the starter is
			this.redis.command("HSET", key, "sessionAttr:cart",
					new String(new byte[] { (byte) 0xAC, (byte) 0xED, 0, 5 }, StandardCharsets.ISO_8859_1));
			assertThat(repository.findById(session.getId()).hasElement().block(WAIT)).isFalse();
			assertThat(this.redis.command("EXISTS", key)).isEqualTo(0L);
		});
	}

	/** The repository as Spring Session's WebFlux configuration makes it, then customized. */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static ReactiveSessionRepository<Session> repository(ApplicationContext context) {
		RedisSerializer<Object> values = context.getBean("springSessionDefaultRedisSerializer", RedisSerializer.class);
		RedisSerializationContext<String, Object> serialization = RedisSerializationContext
			.<String, Object>newSerializationContext(values)
			.key(RedisSerializer.string())
			.hashKey(RedisSerializer.string())
			.build();
		ReactiveRedisSessionRepository repository = new ReactiveRedisSessionRepository(
				new ReactiveRedisTemplate<>(context.getBean(ReactiveRedisConnectionFactory.class), serialization));
		ResolvableType customizer = ResolvableType.forClassWithGenerics(ReactiveSessionRepositoryCustomizer.class,
				ReactiveRedisSessionRepository.class);
		context.getBeanProvider(customizer)
			.orderedStream()
			.forEach((bean) -> ((ReactiveSessionRepositoryCustomizer<ReactiveRedisSessionRepository>) bean)
				.customize(repository));
		assertThat(context.getBeanNamesForType(customizer)).as("the starter's customizer")
			.contains("slipcaseReactiveRedisSessionRepositoryCustomizer");
		return (ReactiveSessionRepository) repository;
	}

}
