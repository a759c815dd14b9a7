package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.slipcase.redis.benchmark.Payload;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.springdata.SlipcaseReactiveRedisTemplate;
import dev.slipcase.redis.template.RedisFixture.Writes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * SET then GET of one payload by {@value #SUBSCRIBERS} concurrent subscribers against a real local
 * Redis, without a thread per caller: Slipcase's {@link ReactiveValueTemplate} (JSON) beside
 * Spring Data's {@code ReactiveRedisTemplate} with {@code RedisSerializer.json()} on a plain
 * connection factory (what a WebFlux app has without Slipcase) and with Slipcase's serializers.
 * One benchmark invocation runs {@value #SUBSCRIBERS} SET-then-GET chains at once, each on its own
 * key, and waits for them all; scores are per chain. Run with {@code -prof gc}:
 * <pre>java -jar benchmarks/target/benchmarks.jar ReactiveTemplateBenchmark -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class ReactiveTemplateBenchmark {

	/** The concurrent subscribers of one invocation. */
	static final int SUBSCRIBERS = 64;

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Param({ "ORDER", "DOCUMENT" })
	public Payload payload;

	@Param({ "slipcase-reactive-json", "spring-reactive-slipcase-json", "spring-reactive-json" })
	public String candidate;

	private RedisFixture redis;

	private LettuceConnectionFactory factory;

	private Candidate client;

	private Object value;

	private String[] keys;

	@Setup(Level.Trial)
	public void setUp() {
		this.redis = RedisFixture.start();
		this.value = this.payload.value();
		this.keys = new String[SUBSCRIBERS];
		for (int i = 0; i < SUBSCRIBERS; i++) {
			this.keys[i] = "bench:" + i;
		}
		this.client = switch (this.candidate) {
			case "slipcase-reactive-json" -> slipcase();
			// as users have them: the starter customizes Boot's factory, a plain factory sends each command on its own
			case "spring-reactive-slipcase-json" -> spring(Writes.COALESCED, SlipcaseSerializers.json(this.payload.type()), true);
			case "spring-reactive-json" -> spring(Writes.EACH, RedisSerializer.json(), false);
			default -> throw new IllegalArgumentException("Unknown candidate '" + this.candidate + "'");
		};
	}

	private Candidate slipcase() {
		ValueTemplate<Object> template = ValueTemplate.create(this.redis.client(), this.redis.uri(),
				TemplateCandidates.slipcaseJson(this.payload));
		ReactiveValueTemplate<Object> reactive = template.reactive();
		return new Candidate((key) -> reactive.set(key, this.value).then(reactive.get(key)), template::close);
	}

	@SuppressWarnings("unchecked")
	private Candidate spring(Writes writes, RedisSerializer<?> values, boolean slipcaseTemplate) {
		this.factory = this.redis.connectionFactory(0, writes);
		RedisSerializationContext<String, Object> context = RedisSerializationContext
			.<String, Object>newSerializationContext((RedisSerializer<Object>) values)
			.key(RedisSerializer.string())
			.hashKey(RedisSerializer.string())
			.build();
		ReactiveRedisTemplate<String, Object> template = slipcaseTemplate
				? new SlipcaseReactiveRedisTemplate<>(this.factory, context) : new ReactiveRedisTemplate<>(this.factory, context);
		return new Candidate((key) -> template.opsForValue().set(key, this.value).then(template.opsForValue().get(key)),
				this.factory::destroy);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.client.close().run();
		this.redis.close();
	}

	@Benchmark
	@OperationsPerInvocation(SUBSCRIBERS)
	public Object setThenGet() {
		return Flux.fromArray(this.keys).flatMap(this.client.setGet::apply, SUBSCRIBERS).then().block(WAIT);
	}

	/** One SET-then-GET chain per key, and how to let go of the candidate. */
	private record Candidate(Function<String, Mono<Object>> setGet, Runnable close) {

	}

}
