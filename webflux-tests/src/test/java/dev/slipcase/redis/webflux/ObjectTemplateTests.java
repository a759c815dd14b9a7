package dev.slipcase.redis.webflux;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.GenericJacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Object templates of the WebFlux shop reading what their own operations and other writers
 * left under their keys: likes counted by {@code increment} and notes kept by {@code append} over
 * real HTTP, through {@code slipcaseReactiveRedisTemplate}; and, through it, through
 * {@code slipcaseRedisTemplate} and Boot's {@code redisTemplate} switched over, what Spring's
 * {@code RedisSerializer.json()} wrote for a string, a number and a boolean, a plain string, an
 * {@code INCR} counter and an empty value, each read as the type {@code docs/configuration.md}
 * names; a value of another kind and a key holding a hash fail naming the key.
 */
@SpringBootTest(classes = ShopWebFluxApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "slipcase.redis.redis-template.enabled=true")
class ObjectTemplateTests extends ShopOverHttp {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Autowired
	@Qualifier("slipcaseReactiveRedisTemplate")
	private ReactiveRedisTemplate<String, Object> reactive;

	@Autowired
	@Qualifier("slipcaseRedisTemplate")
	private RedisTemplate<String, Object> blocking;

	@Autowired
	@Qualifier("redisTemplate")
	private RedisTemplate<Object, Object> boots;

	@Test
	void likesCountedByIncrementReadBackAsALong() {
		WebClient client = WebClient.create("http://localhost:" + this.port);
		Flux.range(0, 50)
			.flatMap((i) -> client.post().uri("/products/7/likes").retrieve().bodyToMono(Long.class), 8)
			.blockLast(WAIT);
		this.http.get().uri("/products/7/likes").exchange().expectStatus().isOk().expectBody(Long.class).isEqualTo(50L);
		assertThat(redis.command("GET", "likes:7")).isEqualTo("50");
	}

	@Test
	void notesKeptByAppendReadBackAsAString() {
		long length = 0;
		for (String line : new String[] { "arrived", "shelved" }) {
			length += line.length() + 1;
			this.http.post().uri("/products/7/notes").contentType(MediaType.TEXT_PLAIN).bodyValue(line).exchange()
				.expectStatus().isOk().expectBody(Long.class).isEqualTo(length);
		}
		this.http.get().uri("/products/7/notes").exchange().expectStatus().isOk().expectBody(String.class)
			.isEqualTo("arrived\nshelved\n");
	}

	@Test
	void whatOtherWritersLeftReadsAsTheTypeTheDocsName() {
		RedisSerializer<Object> json = GenericJacksonJsonRedisSerializer.builder().build();
		redis.command("SET", "json-string", new String(json.serialize("hello")));
		redis.command("SET", "json-number", new String(json.serialize(42)));
		redis.command("SET", "json-boolean", new String(json.serialize(true)));
		redis.command("SET", "plain", "hello world");
		redis.command("INCRBY", "counter", "41");
		redis.command("INCRBYFLOAT", "float-counter", "2.5");
		redis.command("SET", "empty", "");
		for (Reader reader : readers()) {
			assertThat(reader.get("json-string")).as(reader.name).isEqualTo("hello");
			assertThat(reader.get("json-number")).as(reader.name).isEqualTo(42L);
			assertThat(reader.get("json-boolean")).as(reader.name).isEqualTo(true);
			assertThat(reader.get("plain")).as(reader.name).isEqualTo("hello world");
			assertThat(reader.get("counter")).as(reader.name).isEqualTo(41L);
			assertThat(reader.get("float-counter")).as(reader.name).isEqualTo(2.5);
			assertThat(reader.get("empty")).as(reader.name).isEqualTo("");
		}
	}

	@Test
	void aValueOfAnotherKindOrAKeyOfAnotherTypeFailsNamingTheKey() {
		redis.command("SET", "cut", "[\"product\",{\"id\":4");
		redis.command("HSET", "hash", "field", "value");
		for (Reader reader : readers()) {
			assertThatExceptionOfType(SerializationException.class).as(reader.name)
				.isThrownBy(() -> reader.get("cut"))
				.withMessageContaining("'cut'");
			assertThatExceptionOfType(DataAccessException.class).as(reader.name)
				.isThrownBy(() -> reader.get("hash"))
				.withMessageContaining("'hash'")
				.withMessageContaining("WRONGTYPE");
		}
	}

	private Reader[] readers() {
		return new Reader[] { new Reader("slipcaseReactiveRedisTemplate",
				(key) -> this.reactive.opsForValue().get(key).block(WAIT)),
				new Reader("slipcaseRedisTemplate", (key) -> this.blocking.opsForValue().get(key)),
				new Reader("redisTemplate", (key) -> this.boots.opsForValue().get(key)) };
	}

	private record Reader(String name, java.util.function.Function<String, Object> read) {

		Object get(String key) {
			return this.read.apply(key);
		}

	}

}
