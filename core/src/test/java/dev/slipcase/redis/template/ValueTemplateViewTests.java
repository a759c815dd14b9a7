package dev.slipcase.redis.template;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.testformat.PickyFormat;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Views of a {@link ValueTemplate} keep every setting they do not change: each combination of
 * {@code forDatabase}, {@code withFormat}, {@code withAllocator}, {@code withCallerThreadDecoding}
 * and the chunk size, in every order, and the two that were lost before, seen working against a
 * real Redis.
 */
@ExtendWith(RedisExtension.class)
class ValueTemplateViewTests {

	private static final ByteBufAllocator OTHER_ALLOCATOR = new UnpooledByteBufAllocator(true);

	private static final int OTHER_CHUNK_SIZE = 4096;

	private static final int OTHER_WINDOW = 3;

	private static RedisServer redis;

	private static RedisClient client;

	private static ValueTemplate<String> base;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		base = ValueTemplate.create(client, RedisURI.create(server.endpoint().uri()), PickyFormat.INSTANCE);
	}

	@AfterAll
	static void shutdown() {
		base.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	/** One view method, and the setting it changes. */
	enum View {

		DATABASE((template) -> template.forDatabase(3)),
		FORMAT((template) -> template.withFormat(Utf8TestFormat.INSTANCE)),
		ALLOCATOR((template) -> template.withAllocator(OTHER_ALLOCATOR)),
		CALLER_THREAD_DECODING(ValueTemplate::withCallerThreadDecoding),
		CHUNK_SIZE((template) -> template.withChunkSize(OTHER_CHUNK_SIZE)),
		TRANSFER_WINDOW((template) -> template.withTransferWindow(OTHER_WINDOW));

		private final UnaryOperator<ValueTemplate<String>> apply;

		View(UnaryOperator<ValueTemplate<String>> apply) {
			this.apply = apply;
		}

	}

	/** Every non-empty sequence of distinct views: each combination, in each order. */
	static Stream<List<View>> sequences() {
		List<List<View>> all = new ArrayList<>();
		extend(new ArrayList<>(), all);
		return all.stream();
	}

	private static void extend(List<View> prefix, List<List<View>> all) {
		for (View view : View.values()) {
			if (!prefix.contains(view)) {
				List<View> longer = new ArrayList<>(prefix);
				longer.add(view);
				all.add(longer);
				extend(longer, all);
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("sequences")
	void aViewKeepsEverySettingItDoesNotChange(List<View> views) {
		ValueTemplate<String> template = base;
		for (View view : views) {
			template = view.apply.apply(template);
		}
		Set<View> applied = EnumSet.copyOf(views);
		TemplateSettings<String> settings = template.settings();
		assertThat(settings.database()).isEqualTo(applied.contains(View.DATABASE) ? 3 : 0);
		assertThat(settings.format())
			.isSameAs(applied.contains(View.FORMAT) ? Utf8TestFormat.INSTANCE : PickyFormat.INSTANCE);
		assertThat(settings.allocator())
			.isSameAs(applied.contains(View.ALLOCATOR) ? OTHER_ALLOCATOR : PooledByteBufAllocator.DEFAULT);
		assertThat(settings.callerDecodeFrom()).isEqualTo(
				applied.contains(View.CALLER_THREAD_DECODING) ? 0 : TemplateSettings.DEFAULT_CALLER_DECODE_FROM);
		assertThat(settings.chunkSize())
			.isEqualTo(applied.contains(View.CHUNK_SIZE) ? OTHER_CHUNK_SIZE : TemplateSettings.DEFAULT_CHUNK_SIZE);
		assertThat(settings.transferWindow()).isEqualTo(
				applied.contains(View.TRANSFER_WINDOW) ? OTHER_WINDOW : ReactiveLargeValueTransfer.DEFAULT_WINDOW);
		assertThat(template.database()).isEqualTo(settings.database());
	}

	@Test
	void aDatabaseViewOfACallerThreadDecodingViewStillDecodesOnTheCaller() {
		ThreadRecordingFormat format = new ThreadRecordingFormat();
		ValueTemplate<String> view = base.withFormat(format).withCallerThreadDecoding().forDatabase(1);
		view.set("k", "v");
		assertThat(view.get("k")).isEqualTo("v");
		assertThat(format.decodedOn).containsExactly(Thread.currentThread());
		assertThat(redis.command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void aDatabaseFormatOrAllocatorViewKeepsTheChunkSize() throws Exception {
		byte[] value = new byte[3 * OTHER_CHUNK_SIZE + 1];
		ValueTemplate<String> view = base.withChunkSize(OTHER_CHUNK_SIZE)
			.forDatabase(1)
			.withFormat(Utf8TestFormat.INSTANCE)
			.withAllocator(OTHER_ALLOCATOR);
		redis.command("CONFIG", "RESETSTAT");
		view.upload("large", new ByteArrayInputStream(value), value.length);
		// one SET, then one APPEND per further chunk
		assertThat(redis.calls("append")).isEqualTo(3);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(view.download("large", out)).isEqualTo(value.length);
		assertThat(out.toByteArray()).isEqualTo(value);
	}

	/** UTF-8 strings, remembering the threads that decoded them. */
	static final class ThreadRecordingFormat implements ValueFormat<String> {

		final List<Thread> decodedOn = new CopyOnWriteArrayList<>();

		@Override
		public void encode(String value, ByteBuf out) {
			Utf8TestFormat.INSTANCE.encode(value, out);
		}

		@Override
		public String decode(ByteBuf in) {
			this.decodedOn.add(Thread.currentThread());
			return Utf8TestFormat.INSTANCE.decode(in);
		}

		@Override
		public String name() {
			return "test-thread-recording";
		}

	}

}
