package dev.slipcase.redis.template;

import java.time.Instant;
import java.util.List;

import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.FormatRouter;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.test.RedisEndpoint;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ValueTemplates}: typed views over one set of connections, each type in its
 * router's format, against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class ValueTemplatesTests {

	record Ticket(String id, Instant at, List<String> seats, @Nullable String note) {
	}

	@Test
	void typedTemplatesRoundTripRecordsAndGenericsInTheRoutersFormat(RedisServer redis) {
		redis.flushAll();
		LettuceConnectionFactory factory = factory(redis);
		FormatRouter router = FormatRouter.builder().register(Ticket.class, FormatKind.PROTOSTUFF).build();
		try (ValueTemplates templates = ValueTemplates.builder(factory).formatRouter(router).build()) {
			Ticket ticket = new Ticket("t1", Instant.parse("2026-11-21T19:00:00Z"), List.of("A1", "A2"), null);
			templates.forType(Ticket.class).set("ticket", ticket);
			assertThat(templates.forType(Ticket.class).get("ticket")).isEqualTo(ticket);
			assertThat(templates.forType(Ticket.class)).isSameAs(templates.forType(Ticket.class));
			try (ValueLease lease = templates.lease("ticket")) {
				assertThat(lease.content().getByte(0)).isNotEqualTo((byte) '{');
			}
			ValueTemplate<List<String>> lists = templates.forType(new TypeReference<List<String>>() {
			});
			lists.set("list", List.of("x", "y"));
			assertThat(lists.get("list")).containsExactly("x", "y");
			ValueTemplate<Object> any = templates.forTypes(TypeAllowlist.builder().allow("ticket", Ticket.class).build());
			any.set("any-ticket", ticket);
			assertThat(any.get("any-ticket")).isEqualTo(ticket);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void theTemplateOfAllowlistedTypesReadsItsOwnCountersAndOtherWritersText(RedisServer redis) {
		redis.flushAll();
		LettuceConnectionFactory factory = factory(redis);
		try (ValueTemplates templates = ValueTemplates.builder(factory).build()) {
			ValueTemplate<Object> any = templates.forTypes(TypeAllowlist.builder().allow("ticket", Ticket.class).build());
			any.incrementBy("count", 3);
			assertThat(any.get("count")).isEqualTo(3L);
			redis.command("APPEND", "text", "one,");
			redis.command("APPEND", "text", "two");
			assertThat(any.get("text")).isEqualTo("one,two");
			redis.command("SET", "empty", "");
			assertThat(any.get("empty")).isEqualTo("");
			redis.command("SET", "cut", "[\"ticket\",{\"id\":");
			assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> any.get("cut"))
				.withMessageContaining("'cut'");
			assertThat(any.async().get("count").join()).isEqualTo(3L);
			assertThat(any.reactive().get("text").block()).isEqualTo("one,two");
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void databaseAndCallerThreadDecodingApplyToEveryView(RedisServer redis) {
		redis.flushAll();
		LettuceConnectionFactory factory = factory(redis);
		try (ValueTemplates templates = ValueTemplates.builder(factory).database(4).callerThreadDecodingFrom(0).build()) {
			ValueTemplate<String> strings = templates.forType(String.class);
			strings.set("k", "four");
			assertThat(strings.database()).isEqualTo(4);
			assertThat(strings.get("k")).isEqualTo("four");
			assertThat(redis.command("EXISTS", "k")).isEqualTo(0L);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void closingClosesTheSharedConnectionsOfEveryView(RedisServer redis) {
		LettuceConnectionFactory factory = factory(redis);
		try {
			ValueTemplates templates = ValueTemplates.builder(factory).build();
			ValueTemplate<String> strings = templates.forType(String.class);
			strings.set("k", "v");
			templates.close();
			assertThatIllegalStateException().isThrownBy(() -> strings.get("k")).withMessageContaining("closed");
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void badArgumentsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> ValueTemplates.builder(null))
			.withMessageContaining("factory");
		LettuceConnectionFactory factory = new LettuceConnectionFactory();
		assertThatIllegalArgumentException().isThrownBy(() -> ValueTemplates.builder(factory).database(-1))
			.withMessageContaining("database");
		assertThatIllegalArgumentException().isThrownBy(() -> ValueTemplates.builder(factory).formatRouter(null))
			.withMessageContaining("router");
	}

	private static LettuceConnectionFactory factory(RedisServer redis) {
		RedisEndpoint endpoint = redis.endpoint();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()));
		factory.afterPropertiesSet();
		return factory;
	}

}
