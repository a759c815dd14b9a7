package dev.slipcase.redis.autoconfigure;

import java.util.Locale;

import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.jdk.JdkAllowlist;
import dev.slipcase.redis.serializer.jdk.SwitchOverPhase;
import dev.slipcase.redis.springdata.SlipcaseRedisTemplate;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.core.type.MethodMetadata;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * When {@code slipcase.redis.redis-template.enabled} is set, replaces Boot's auto-configured
 * {@code redisTemplate}, before it is initialised, with a {@link SlipcaseRedisTemplate} on the
 * same connection factory: UTF-8 String keys and hash keys (JDK-serialized ones with
 * {@code jdk-keys}), values and hash values through the family's {@code Object} serializer,
 * switching over from JDK values as {@code switch-over} says, and the key named in serialization
 * errors. Only the bean Boot's {@link DataRedisAutoConfiguration} defined is
 * changed; a {@code redisTemplate} the application defines (which makes Boot back off) is left as
 * it is.
 */
final class BootRedisTemplatePostProcessor implements BeanPostProcessor, BeanFactoryAware {

	static final String BEAN_NAME = "redisTemplate";

	private final ObjectProvider<SlipcaseSerializerFamily> family;

	private final ObjectProvider<SwitchOverSerializers> switchOver;

	private final ObjectProvider<SlipcaseRedisProperties> properties;

	private final ObjectProvider<SlipcaseRedisTemplateCustomizer> customizers;

	private ConfigurableListableBeanFactory beanFactory;

	BootRedisTemplatePostProcessor(ObjectProvider<SlipcaseSerializerFamily> family,
			ObjectProvider<SwitchOverSerializers> switchOver, ObjectProvider<SlipcaseRedisProperties> properties,
			ObjectProvider<SlipcaseRedisTemplateCustomizer> customizers) {
		this.family = family;
		this.switchOver = switchOver;
		this.properties = properties;
		this.customizers = customizers;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
		if (BEAN_NAME.equals(beanName) && bean instanceof RedisTemplate<?, ?> boots && isDefinedByBoot()) {
			SlipcaseRedisTemplate<Object, Object> template = new SlipcaseRedisTemplate<>();
			template.setConnectionFactory(boots.getConnectionFactory());
			this.family.getObject().configure(template);
			switchOver(template, this.properties.getObject().getRedisTemplate());
			this.customizers.orderedStream().forEach((customizer) -> customizer.customize(template));
			return template;
		}
		return bean;
	}

	/**
	 * Keeps the template's keys JDK-serialized ({@code jdk-keys}), and reads and writes its values
	 * as {@code switch-over} says; a switch-over other than done needs JDK keys, or new instances
	 * would address other keys than the instances without Slipcase.
	 */
	private void switchOver(SlipcaseRedisTemplate<Object, Object> template, SlipcaseRedisProperties.RedisTemplate settings) {
		SwitchOverPhase phase = settings.getSwitchOver();
		if (phase != SwitchOverPhase.DONE && !settings.isJdkKeys()) {
			throw new SlipcaseConfigurationException("slipcase.redis.redis-template.jdk-keys",
					"slipcase.redis.redis-template.switch-over is " + phase.name().toLowerCase(Locale.ROOT).replace('_', '-')
							+ ", but the redisTemplate writes UTF-8 keys, which instances without Slipcase do not "
							+ "address (they wrote JDK-serialized keys)",
					"Set slipcase.redis.redis-template.jdk-keys=true, so that the switched-over redisTemplate keeps "
							+ "the keys it wrote before.",
					null);
		}
		if (!settings.isJdkKeys()) {
			return; // and so done: the family's serializers, as configured
		}
		SwitchOverSerializers serializers = this.switchOver.getObject();
		JdkAllowlist allowlist = serializers.allowlist().build();
		RedisSerializer<Object> keys = serializers.jdk(allowlist);
		template.setKeySerializer(keys);
		template.setHashKeySerializer(keys);
		@SuppressWarnings("unchecked")
		RedisSerializer<Object> values = (RedisSerializer<Object>) template.getValueSerializer();
		@SuppressWarnings("unchecked")
		RedisSerializer<Object> hashValues = (RedisSerializer<Object>) template.getHashValueSerializer();
		template.setValueSerializer(serializers.of(values, () -> allowlist, phase, "redis-template", BEAN_NAME));
		template.setHashValueSerializer(serializers.of(hashValues, () -> allowlist, phase, "redis-template", BEAN_NAME));
	}

	private boolean isDefinedByBoot() {
		if (!this.beanFactory.containsBeanDefinition(BEAN_NAME)) {
			return false;
		}
		BeanDefinition definition = this.beanFactory.getBeanDefinition(BEAN_NAME);
		if (!(definition instanceof AnnotatedBeanDefinition annotated)) {
			return false;
		}
		MethodMetadata factoryMethod = annotated.getFactoryMethodMetadata();
		return factoryMethod != null
				&& DataRedisAutoConfiguration.class.getName().equals(factoryMethod.getDeclaringClassName());
	}

}
