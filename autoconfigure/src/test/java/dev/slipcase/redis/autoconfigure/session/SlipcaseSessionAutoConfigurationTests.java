package dev.slipcase.redis.autoconfigure.session;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import org.apache.fory.Fory;
import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.Language;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.asm.ClassWriter;
import org.springframework.asm.Opcodes;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.core.userdetails.User;
import org.springframework.session.data.redis.RedisSessionRepository;

import static org.assertj.core.api.Assertions.assertThat;

/** When Slipcase serializes Spring Session's values, and how. */
@ExtendWith(OutputCaptureExtension.class)
class SlipcaseSessionAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseRedisAutoConfiguration.class,
				SlipcaseSessionAutoConfiguration.class));

	@Test
	void aFamilyOfTheApplicationsOwnWithoutSlipcasesAutoConfigurationGivesNoSessionSerializer() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseSessionAutoConfiguration.class))
			.withBean(SlipcaseSerializerFamily.class,
					() -> SlipcaseSerializerFamily.builder().allow("long", Long.class).build())
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("springSessionDefaultRedisSerializer"));
	}

	@Test
	void withoutTheSerializerFamilyThereIsNoSessionSerializer() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseSessionAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("springSessionDefaultRedisSerializer"));
	}

	@Test
	void springSessionsSerializerIsSlipcasesAndRoundTripsASecurityContext() {
		this.runner.run((context) -> {
			RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
					SessionValueSerializer.class);
			SecurityContextImpl security = new SecurityContextImpl(UsernamePasswordAuthenticationToken
				.authenticated("ada", null, AuthorityUtils.createAuthorityList("ROLE_USER")));
			byte[] bytes = serializer.serialize(security);
			assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("{\"@class\":");
			assertThat(serializer.deserialize(bytes)).isEqualTo(security);
			assertThat(serializer.deserialize(serializer.serialize(1_700_000_000_000L))).isEqualTo(1_700_000_000_000L);
		});
	}

	@Test
	void aClassTheAllowlistDoesNotNameIsUnreadableNotLoaded() {
		this.runner.run((context) -> {
			RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
					SessionValueSerializer.class);
			byte[] gadget = "{\"@class\":\"org.springframework.context.support.ClassPathXmlApplicationContext\",\"configLocation\":\"http://127.0.0.1/x.xml\"}"
				.getBytes(StandardCharsets.UTF_8);
			assertThat(serializer.deserialize(gadget)).isSameAs(SessionValueSerializer.UNREADABLE);
		});
	}

	@Test
	void compressionAndFormatComeFromTheProperties() {
		this.runner.withPropertyValues("slipcase.redis.session.compression=gzip", "slipcase.redis.compression.min-size=0")
			.run((context) -> {
				RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
						SessionValueSerializer.class);
				byte[] bytes = serializer.serialize("x".repeat(500));
				assertThat(bytes.length).isLessThan(100);
				assertThat(serializer.deserialize(bytes)).isEqualTo("x".repeat(500));
			});
	}

	@Test
	void anUnknownCompressorFailsNamingTheProperty() {
		this.runner.withPropertyValues("slipcase.redis.session.compression=brotli")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(SlipcaseConfigurationException.class)
				.hasMessageContaining("slipcase.redis.session.compression"));
	}

	@Test
	void backsOffFromTheApplicationsOwnSerializer() {
		this.runner.withBean("springSessionDefaultRedisSerializer", RedisSerializer.class, RedisSerializer::java)
			.run((context) -> assertThat(context.getBean("springSessionDefaultRedisSerializer"))
				.isNotInstanceOf(SessionValueSerializer.class));
	}

	@Test
	void offWhenDisabled() {
		this.runner.withPropertyValues("slipcase.redis.session.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("springSessionDefaultRedisSerializer"));
	}

	@Test
	void offWithoutSpringSession() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.session"))
			.run((context) -> assertThat(context).doesNotHaveBean("springSessionDefaultRedisSerializer"));
	}

	@Test
	void withoutSpringSecurityAppValuesStillRoundTrip() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> {
				RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
						SessionValueSerializer.class);
				java.util.List<String> cart = new java.util.ArrayList<>(java.util.List.of("book"));
				assertThat(serializer.deserialize(serializer.serialize(cart))).isEqualTo(cart);
			});
	}

	@Test
	void foryRoundTripsALoggedInSecurityContextAndTheSessionsOwnValues() {
		this.runner.withPropertyValues("slipcase.redis.session.format=fory").run((context) -> {
			RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
					SessionValueSerializer.class);
			User ada = new User("ada", "", AuthorityUtils.createAuthorityList("ROLE_USER", "ROLE_ADMIN"));
			SecurityContextImpl security = new SecurityContextImpl(
					UsernamePasswordAuthenticationToken.authenticated(ada, null, ada.getAuthorities()));
			byte[] bytes = serializer.serialize(security);
			assertThat(bytes[0] & 0xFF).isEqualTo(FormatHeader.MARKER);
			assertThat(bytes[1]).isEqualTo((byte) FormatHeader.FORY);
			Object read = serializer.deserialize(bytes);
			assertThat(read).isEqualTo(security);
			assertThat(((SecurityContextImpl) read).getAuthentication().getPrincipal()).isEqualTo(ada);
			assertThat(serializer.deserialize(serializer.serialize(1_700_000_000_000L))).isEqualTo(1_700_000_000_000L);
			assertThat(serializer.deserialize(serializer.serialize(1800))).isEqualTo(1800);
		});
	}

	@Test
	void foryKeepsOnlyTheMessageOfALoginFailureNeverThePasswordItCarries() {
		this.runner.withPropertyValues("slipcase.redis.session.format=fory").run((context) -> {
			RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
					SessionValueSerializer.class);
			BadCredentialsException failure = new BadCredentialsException("Bad credentials");
			failure.setAuthenticationRequest(
					UsernamePasswordAuthenticationToken.unauthenticated("ada", "correct-horse-battery"));
			byte[] bytes = serializer.serialize(failure);
			assertThat(new String(bytes, StandardCharsets.ISO_8859_1)).doesNotContain("correct-horse-battery")
				.doesNotContain("ada")
				.doesNotContain("ProviderManager")
				.doesNotContain(getClass().getSimpleName());
			assertThat(serializer.deserialize(bytes)).asInstanceOf(
					org.assertj.core.api.InstanceOfAssertFactories.throwable(BadCredentialsException.class))
				.hasMessage("Bad credentials");
			assertThat(serializer.deserialize(serializer.serialize(new LockedException("User account is locked"))))
				.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.throwable(LockedException.class))
				.hasMessage("User account is locked");
		});
	}

	@Test
	void foryRefusesAValueOfAClassItDoesNotRegister() {
		this.runner.withPropertyValues("slipcase.redis.session.format=fory").run((context) -> {
			RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
					SessionValueSerializer.class);
			Fory permissive = Fory.builder()
				.withLanguage(Language.JAVA)
				.withCompatibleMode(CompatibleMode.COMPATIBLE)
				.withRefTracking(false)
				.requireClassRegistration(false)
				.build();
			byte[] body = permissive.serialize(new NotRegistered("rm -rf /"));
			byte[] value = new byte[body.length + FormatHeader.LENGTH];
			value[0] = (byte) FormatHeader.MARKER;
			value[1] = FormatHeader.FORY;
			System.arraycopy(body, 0, value, FormatHeader.LENGTH, body.length);
			assertThat(serializer.deserialize(value)).isSameAs(SessionValueSerializer.UNREADABLE);
		});
	}

	@Test
	void foryWithoutSpringSecurityStillRoundTripsJdkValues() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.withPropertyValues("slipcase.redis.session.format=fory")
			.run((context) -> {
				RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
						SessionValueSerializer.class);
				java.util.List<String> cart = new java.util.ArrayList<>(java.util.List.of("book"));
				assertThat(serializer.deserialize(serializer.serialize(cart))).isEqualTo(cart);
				java.time.Instant at = java.time.Instant.ofEpochSecond(1_800_000_000L, 5);
				assertThat(serializer.deserialize(serializer.serialize(at))).isEqualTo(at);
			});
	}

	/** A class no allowlist names. */
	record NotRegistered(String command) {
	}

	@Test
	void foryWarnsWhenASpringSecurityModuleItDoesNotCoverIsPresent(CapturedOutput output) {
		this.runner.withPropertyValues("slipcase.redis.session.format=fory")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("slipcase.redis.session.format=fory:");
		this.runner.withPropertyValues("slipcase.redis.session.format=fory")
			.withClassLoader(new WithOneMoreClass(getClass().getClassLoader(),
					"org.springframework.security.oauth2.client.OAuth2AuthorizedClient"))
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("slipcase.redis.session.format=fory: Spring Security's OAuth2 client and login")
			.contains("Set slipcase.redis.session.format=json");
	}

	/** Its parent's classes, and one more: an empty class of the given name, as if its jar were there. */
	private static final class WithOneMoreClass extends ClassLoader {

		private final String name;

		WithOneMoreClass(ClassLoader parent, String name) {
			super(parent);
			this.name = name;
		}

		@Override
		protected Class<?> findClass(String requested) throws ClassNotFoundException {
			if (!requested.equals(this.name)) {
				throw new ClassNotFoundException(requested);
			}
			ClassWriter writer = new ClassWriter(0);
			writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, requested.replace('.', '/'), null, "java/lang/Object", null);
			writer.visitEnd();
			byte[] bytes = writer.toByteArray();
			return defineClass(requested, bytes, 0, bytes.length);
		}

	}

	@Test
	void writingJdkSessionValuesAreWhatSpringSessionWroteBeforeAndBothAreRead() {
		this.runner.withPropertyValues("slipcase.redis.session.switch-over=write-jdk").run((context) -> {
			RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
					SessionValueSerializer.class);
			SecurityContextImpl security = new SecurityContextImpl(UsernamePasswordAuthenticationToken
				.authenticated(User.withUsername("ada").password("x").roles("USER").build(), null,
						AuthorityUtils.createAuthorityList("ROLE_USER")));
			byte[] written = serializer.serialize(security);
			assertThat(written).isEqualTo(new JdkSerializationRedisSerializer().serialize(security));
			assertThat(serializer.deserialize(written)).isEqualTo(security);
			assertThat(serializer.deserialize(new JdkSerializationRedisSerializer().serialize(new BadCredentialsException("no"))))
				.isInstanceOf(BadCredentialsException.class);
		});
	}

	@Test
	void doneSessionValuesThatAreJdkSerializedAreUnreadable() {
		this.runner.run((context) -> {
			RedisSerializer<Object> serializer = context.getBean("springSessionDefaultRedisSerializer",
					SessionValueSerializer.class);
			assertThat(serializer.deserialize(new JdkSerializationRedisSerializer().serialize(1_700_000_000_000L)))
				.isSameAs(SessionValueSerializer.UNREADABLE);
		});
	}

	@Test
	void onlyReadingJdkMakesTheSessionRepositoryWriteSessionsAgainKeepingItsType() {
		ApplicationContextRunner withRepository = this.runner
			.withBean("sessionRepository", RedisSessionRepository.class,
					() -> new RedisSessionRepository(new org.springframework.data.redis.core.RedisTemplate<>()));
		withRepository.withPropertyValues("slipcase.redis.session.switch-over=read-jdk").run((context) -> {
			RedisSessionRepository repository = context.getBean("sessionRepository", RedisSessionRepository.class);
			assertThat(((Advised) repository).getAdvisors())
				.anyMatch((advisor) -> advisor.getAdvice() instanceof RewritingSessionRepository);
		});
		withRepository.withPropertyValues("slipcase.redis.session.switch-over=write-jdk")
			.run((context) -> assertThat(AopUtils.isAopProxy(context.getBean("sessionRepository"))).isFalse());
		withRepository.run((context) -> assertThat(AopUtils.isAopProxy(context.getBean("sessionRepository"))).isFalse());
	}

}
