package dev.slipcase.redis.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.compression.Lz4Compressor;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.sharded.ShardedTemplates;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.lettuce.core.tracing.MicrometerTracing;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Slipcase's observations against a real Redis, with Lettuce's own Micrometer tracing switched on
 * as Spring Boot does: names, low- and high-cardinality tags, outcomes, and Lettuce's command
 * observations nested under Slipcase's, which nest under the caller's.
 */
@ExtendWith(RedisExtension.class)
class ObservationTests {

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

	private ClientResources resources;

	private RedisClient client;

	private RedisURI uri;

	@BeforeEach
	void connect(RedisServer redis) {
		redis.flushAll();
		this.registry.observationConfig().observationHandler(new StoppedContexts(this.stopped));
		this.resources = DefaultClientResources.builder()
			.tracing(new MicrometerTracing(this.registry, "test-redis"))
			.build();
		this.client = RedisClient.create(this.resources);
		this.uri = RedisURI.create(redis.endpoint().uri());
	}

	@AfterEach
	void shutdown() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
	}

	@Test
	@SuppressWarnings("try")
	void eachTemplateCommandIsObservedWithItsTagsAndLettucesCommandNestsUnderIt() {
		try (ValueTemplate<Order> template = ValueTemplate.create(this.client, this.uri, JsonFormat.of(Order.class))
			.withObservationRegistry(this.registry)) {
			// the first command waits for the connection to open and is dispatched by the event
			// loop when it is, outside any observation's scope
			template.set("warm-up", new Order(0, "opens the connection"));
			this.stopped.clear();
			this.registry.clear();
			Observation request = Observation.start("test.request", this.registry);
			try (Observation.Scope scope = request.openScope()) {
				template.set("order:1", new Order(1, "first"));
				// a sync call's observation has ended when the call returns
				assertThat(slipcase("SET").outcome()).isEqualTo(SlipcaseObservationContext.Outcome.SUCCESS);
				assertThat(template.get("order:1")).isEqualTo(new Order(1, "first"));
				assertThat(slipcase("GET").storedBytes()).isEqualTo(23);
			}
			request.stop();
		}
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("slipcase.redis.command")
			.that()
			.hasContextualNameEqualTo("slipcase SET")
			.hasLowCardinalityKeyValue("slipcase.operation", "SET")
			.hasLowCardinalityKeyValue("slipcase.format", "json")
			.hasLowCardinalityKeyValue("slipcase.namespace", "none")
			.hasLowCardinalityKeyValue("slipcase.outcome", "success")
			.hasHighCardinalityKeyValue("slipcase.bytes.stored", "23")
			.hasBeenStarted()
			.hasBeenStopped();
		SlipcaseObservationContext get = slipcase("GET");
		assertThat(get.storedBytes()).isEqualTo(23);
		assertThat(get.getParentObservation().getContextView().getName()).isEqualTo("test.request");
		List<LettuceObservationContext> lettuce = lettuceCommands();
		assertThat(lettuce).extracting((context) -> context.getRequiredCommand().getType().toString())
			.contains("SET", "GET");
		for (LettuceObservationContext command : lettuce) {
			assertThat(command.getParentObservation()).isNotNull();
			assertThat(command.getParentObservation().getContextView()).isInstanceOf(SlipcaseObservationContext.class);
		}
	}

	@Test
	void aFailedReadIsObservedAsAnErrorWithItsCause() {
		try (ValueTemplate<Order> template = ValueTemplate.create(this.client, this.uri, JsonFormat.of(Order.class))
			.withObservationRegistry(this.registry)) {
			ValueTemplate<String> text = template.withFormat(dev.slipcase.redis.serializer.Utf8StringFormat.INSTANCE);
			text.set("order:bad", "{not json");
			assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> template.get("order:bad"));
		}
		SlipcaseObservationContext get = slipcase("GET");
		assertThat(get.outcome()).isEqualTo(SlipcaseObservationContext.Outcome.ERROR);
		assertThat(get.getError()).isInstanceOf(SerializationException.class);
	}

	@Test
	void compressionIsObservedWithRawAndStoredBytes() {
		SelfDescribingFormat<Order> compressed = SelfDescribingFormat.builder(JsonFormat.of(Order.class))
			.compression(Lz4Compressor.create(), 16)
			.observationRegistry(this.registry)
			.build();
		try (ValueTemplate<Order> template = ValueTemplate.create(this.client, this.uri, compressed)
			.withObservationRegistry(this.registry)) {
			template.set("order:big", new Order(2, "x".repeat(2000)));
			assertThat(template.get("order:big").name()).hasSize(2000);
		}
		SlipcaseObservationContext compression = this.stopped.stream()
			.filter(SlipcaseObservationContext.class::isInstance)
			.map(SlipcaseObservationContext.class::cast)
			.filter((context) -> context.kind() == SlipcaseObservationDocumentation.COMPRESSION)
			.findFirst()
			.orElseThrow();
		assertThat(compression.format()).isEqualTo("json+lz4");
		assertThat(compression.rawBytes()).isEqualTo(2018);
		assertThat(compression.storedBytes()).isPositive().isLessThan(200);
		// the SET stored the header and the compressed body
		assertThat(slipcase("SET").storedBytes()).isEqualTo(compression.storedBytes() + 2);
	}

	@Test
	void shardedCallsAreObservedPerCallWithTheirNamespaceAndLettucesCommandsNestUnderThem() {
		try (ShardedTemplates templates = ShardedTemplates.create(this.client.connect(
				io.lettuce.core.codec.ByteArrayCodec.INSTANCE, this.uri))) {
			ShardedTemplate<Order> orders = templates
				.template(ShardedNamespace.builder("orders").keyPrefix("o:").build(),
						SlipcaseRedisSerializer.of(JsonFormat.of(Order.class), Order.class))
				.withObservationRegistry(this.registry);
			this.stopped.clear();
			orders.set("o:1", new Order(1, "first"));
			orders.multiSet(Map.of("o:2", new Order(2, "second"), "o:3", new Order(3, "third")));
			assertThat(orders.get("o:1")).isEqualTo(new Order(1, "first"));
			assertThat(orders.multiGet(List.of("o:1", "o:2", "o:9"))).hasSize(3);
			assertThat(orders.delete("o:3")).isTrue();
		}
		List<SlipcaseObservationContext> calls = this.stopped.stream()
			.filter(SlipcaseObservationContext.class::isInstance)
			.map(SlipcaseObservationContext.class::cast)
			.toList();
		assertThat(calls).extracting(SlipcaseObservationContext::operation)
			.containsExactly("set", "multiSet", "get", "multiGet", "delete");
		assertThat(calls).allSatisfy((call) -> {
			assertThat(call.kind()).isEqualTo(SlipcaseObservationDocumentation.SHARDED);
			assertThat(call.namespace()).isEqualTo("orders");
			assertThat(call.format()).isEqualTo("json");
			assertThat(call.outcome()).isEqualTo(SlipcaseObservationContext.Outcome.SUCCESS);
		});
		assertThat(calls.get(0).storedBytes()).isEqualTo(23);
		assertThat(calls.get(3).storedBytes()).isEqualTo(23 + 24);
		assertThat(lettuceCommands()).isNotEmpty().allSatisfy((command) -> {
			assertThat(command.getParentObservation()).isNotNull();
			assertThat(command.getParentObservation().getContextView()).isInstanceOf(SlipcaseObservationContext.class);
		});
	}

	@Test
	void withoutARegistryNothingIsObserved() {
		try (ValueTemplate<Order> template = ValueTemplate.create(this.client, this.uri, JsonFormat.of(Order.class))) {
			template.set("order:1", new Order(1, "first"));
			template.get("order:1");
		}
		assertThat(this.stopped).noneMatch(SlipcaseObservationContext.class::isInstance);
	}

	private SlipcaseObservationContext slipcase(String operation) {
		return this.stopped.stream()
			.filter(SlipcaseObservationContext.class::isInstance)
			.map(SlipcaseObservationContext.class::cast)
			.filter((context) -> context.operation().equals(operation))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + operation + " observation in " + this.stopped));
	}

	/**
	 * Lettuce's observations of the data commands: not of the connection's handshake (HELLO), nor
	 * of the EVAL a script falls back to after NOSCRIPT, which is sent from the event loop.
	 */
	private List<LettuceObservationContext> lettuceCommands() {
		return this.stopped.stream()
			.filter(LettuceObservationContext.class::isInstance)
			.map(LettuceObservationContext.class::cast)
			.filter((context) -> !List.of("HELLO", "EVAL").contains(context.getRequiredCommand().getType().toString()))
			.toList();
	}

	record Order(long id, String name) {
	}

	/** Remembers every observation context when it stops. */
	private record StoppedContexts(List<Observation.Context> stopped) implements ObservationHandler<Observation.Context> {

		@Override
		public void onStop(Observation.Context context) {
			this.stopped.add(context);
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

}
