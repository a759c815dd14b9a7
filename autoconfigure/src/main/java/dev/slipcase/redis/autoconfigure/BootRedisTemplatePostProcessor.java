package dev.slipcase.redis.autoconfigure;

import dev.slipcase.redis.serializer.SlipcaseRedisTemplate;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;

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

/**
 * When {@code slipcase.redis.redis-template.enabled} is set, replaces Boot's auto-configured
 * {@code redisTemplate}, before it is initialised, with a {@link SlipcaseRedisTemplate} on the
 * same connection factory: UTF-8 String keys and hash keys, values and hash values through the
 * family's {@code Object} serializer, and the key named in serialization errors. Only the bean Boot's {@link DataRedisAutoConfiguration} defined is
 * changed; a {@code redisTemplate} the application defines (which makes Boot back off) is left as
 * it is.
 */
final class BootRedisTemplatePostProcessor implements BeanPostProcessor, BeanFactoryAware {

	static final String BEAN_NAME = "redisTemplate";

	private final ObjectProvider<SlipcaseSerializerFamily> family;

	private final ObjectProvider<SlipcaseRedisTemplateCustomizer> customizers;

	private ConfigurableListableBeanFactory beanFactory;

	BootRedisTemplatePostProcessor(ObjectProvider<SlipcaseSerializerFamily> family,
			ObjectProvider<SlipcaseRedisTemplateCustomizer> customizers) {
		this.family = family;
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
			this.customizers.orderedStream().forEach((customizer) -> customizer.customize(template));
			return template;
		}
		return bean;
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
