package dev.slipcase.redis.autoconfigure.sharded;

import java.util.HashMap;
import java.util.Map;

import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.sharded.SlipcaseShardedProperties.Namespace;
import dev.slipcase.redis.sharded.ShardedTemplate;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * Registers one {@code ShardedTemplate<V>} bean per namespace under
 * {@code slipcase.redis.sharded.namespaces}, named {@link ShardedNamespaces#beanName(String)},
 * typed by the namespace's value type (so {@code ShardedTemplate<Long>} injects by type), made by
 * {@link ShardedNamespaceBeans}. A bean the application already defines under that name wins.
 * Every namespace's properties are checked here, before anything connects to Redis.
 */
class ShardedNamespaceRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

	static final String FACTORY_BEAN = "slipcaseShardedNamespaceBeans";

	private Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		Binder binder = Binder.get(this.environment);
		SlipcaseShardedProperties properties = binder.bind("slipcase.redis.sharded", SlipcaseShardedProperties.class)
			.orElseGet(SlipcaseShardedProperties::new);
		Map<String, String> names = new HashMap<>();
		properties.getNamespaces().forEach((name, namespace) -> {
			ShardedNamespaces.builder(name, namespace);
			String beanName = ShardedNamespaces.beanName(name);
			String clash = names.putIfAbsent(beanName, name);
			if (clash != null) {
				throw new SlipcaseConfigurationException(ShardedNamespaces.PREFIX + name, "Namespaces '" + clash
						+ "' and '" + name + "' would both be the bean " + beanName + ".",
						"Rename one of the namespaces (the bean name is the name in camel case).", null);
			}
			if (!registry.containsBeanDefinition(beanName)) {
				registry.registerBeanDefinition(beanName, definition(name, namespace, properties.isLazyInitialization()));
			}
		});
	}

	private static RootBeanDefinition definition(String name, Namespace namespace, boolean lazy) {
		RootBeanDefinition definition = new RootBeanDefinition();
		definition.setTargetType(ResolvableType.forClassWithGenerics(ShardedTemplate.class,
				ClassUtils.resolvePrimitiveIfNecessary(namespace.getValueType())));
		definition.setFactoryBeanName(FACTORY_BEAN);
		definition.setFactoryMethodName("template");
		definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
		definition.setLazyInit(lazy);
		definition.setDescription("Sharded template of namespace '" + name + "' (" + ShardedNamespaces.PREFIX + name + ")");
		return definition;
	}

}
