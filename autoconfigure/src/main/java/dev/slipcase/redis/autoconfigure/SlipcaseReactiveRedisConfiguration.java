package dev.slipcase.redis.autoconfigure;

import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.springdata.SlipcaseReactiveRedisTemplate;
import reactor.core.publisher.Flux;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;

/**
 * A {@code slipcaseReactiveRedisTemplate} when Reactor is on the class path: Slipcase's serializer
 * family on Boot's reactive connection factory, the reactive twin of {@code slipcaseRedisTemplate}
 * (the same values, readable by either). Boot's own {@code reactiveRedisTemplate} stays as Boot
 * made it. Backs off when the application defines a bean of that name.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ Flux.class, ReactiveRedisConnectionFactory.class })
class SlipcaseReactiveRedisConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseReactiveRedisTemplate")
	@ConditionalOnSingleCandidate(ReactiveRedisConnectionFactory.class)
	ReactiveRedisTemplate<String, Object> slipcaseReactiveRedisTemplate(ReactiveRedisConnectionFactory connectionFactory,
			SlipcaseSerializerFamily family) {
		return SlipcaseReactiveRedisTemplate.create(connectionFactory, family);
	}

}
