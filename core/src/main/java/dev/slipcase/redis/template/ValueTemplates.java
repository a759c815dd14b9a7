package dev.slipcase.redis.template;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.slipcase.redis.serializer.BytesFormat;
import dev.slipcase.redis.serializer.FormatRouter;
import dev.slipcase.redis.serializer.PlainValuesFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

/**
 * Makes typed {@link ValueTemplate}s that all share one set of connections, each type in the
 * format a {@link FormatRouter} chooses for it (its registration, its {@code @RedisFormat}, else
 * JSON):
 * <pre class="code">
 * ValueTemplate&lt;Order&gt; orders = valueTemplates.forType(Order.class);
 * try (ValueLease lease = valueTemplates.lease("report:7")) { ... }
 * </pre>
 * The templates it returns are views: they open no connections of their own, and closing one
 * closes the shared connections of all. {@link #close()} closes them once, when the application
 * stops; the connection factory's client is never closed. Thread-safe; templates for a
 * {@code Class} are made once and reused.
 */
public final class ValueTemplates implements AutoCloseable {

	private final ValueTemplate<byte[]> base;

	private final FormatRouter router;

	private final int callerThreadDecodingFrom;

	private final UnacknowledgedWrites unacknowledgedWrites;

	private final ConcurrentMap<Class<?>, ValueTemplate<?>> byType = new ConcurrentHashMap<>();

	private ValueTemplates(Builder builder) {
		ValueTemplate<byte[]> base = ValueTemplate.create(builder.factory, BytesFormat.INSTANCE);
		if (builder.database != null) {
			base = base.forDatabase(builder.database);
		}
		if (builder.allocator != null) {
			base = base.withAllocator(builder.allocator);
		}
		base = base.withObservationRegistry(builder.observations)
			.withUnacknowledgedWrites(builder.unacknowledgedWrites)
			.withChunkSize(builder.chunkSize)
			.withTransferWindow(builder.transferWindow);
		this.base = base;
		this.unacknowledgedWrites = builder.unacknowledgedWrites;
		this.router = (builder.router != null) ? builder.router : FormatRouter.builder().build();
		this.callerThreadDecodingFrom = builder.callerThreadDecodingFrom;
	}

	/**
	 * Starts the templates of a Lettuce connection factory, which must be started; connections are
	 * opened on first use, so building needs no running server.
	 * @param factory the connection factory, never {@code null}
	 */
	public static Builder builder(LettuceConnectionFactory factory) {
		return new Builder(factory);
	}

	/** The template for values of {@code type}, in the format the router chooses for it. */
	@SuppressWarnings("unchecked")
	public <T> ValueTemplate<T> forType(Class<T> type) {
		Assert.notNull(type, "type must not be null");
		return (ValueTemplate<T>) this.byType.computeIfAbsent(type, (key) -> withFormat(this.router.format(type)));
	}

	/** The template for values of the generic {@code type}, such as {@code List<Order>}. */
	public <T> ValueTemplate<T> forType(TypeReference<T> type) {
		Assert.notNull(type, "type must not be null");
		return withFormat(this.router.format(type));
	}

	/**
	 * A template for values of any of the allowlisted types, each tagged with its short id, see
	 * {@link FormatRouter#format(TypeAllowlist)}; it also reads the plain values other writers
	 * leave under its keys (its own {@code incrementBy} counters, text, what {@code json()} wrote
	 * for strings and numbers), see {@link PlainValuesFormat}.
	 */
	public ValueTemplate<Object> forTypes(TypeAllowlist allowlist) {
		Assert.notNull(allowlist, "allowlist must not be null");
		return withFormat(PlainValuesFormat.of(this.router.format(allowlist)));
	}

	/** A template for values in {@code format}. */
	public <T> ValueTemplate<T> withFormat(ValueFormat<T> format) {
		return this.base.withFormat(format).withCallerThreadDecodingFrom(this.callerThreadDecodingFrom);
	}

	/**
	 * The raw bytes at {@code key} in a pooled buffer, or {@code null} when there is none. The
	 * caller is responsible for closing the returned lease, which releases the buffer.
	 */
	public @Nullable ValueLease lease(String key) {
		return this.base.lease(key);
	}

	/** The router that chooses each type's format. */
	public FormatRouter formatRouter() {
		return this.router;
	}

	/** The database the templates' commands go to. */
	public int database() {
		return this.base.database();
	}

	/**
	 * The stored size from which sync reads decode on the caller's thread, in bytes
	 * ({@link ValueTemplate#withCallerThreadDecodingFrom(int)}).
	 */
	public int callerThreadDecodingFrom() {
		return this.callerThreadDecodingFrom;
	}

	/** The chunk size of the templates' {@code upload} and {@code download}, in bytes. */
	public int chunkSize() {
		return this.base.settings().chunkSize();
	}

	/** The chunks each reactive {@code upload} and {@code download} of the templates holds at most. */
	public int transferWindow() {
		return this.base.settings().transferWindow();
	}

	/** What the templates do with a write whose reply was lost ({@link ValueTemplate#withUnacknowledgedWrites}). */
	public UnacknowledgedWrites unacknowledgedWrites() {
		return this.unacknowledgedWrites;
	}

	/** Closes the shared connections; the connection factory is left alone. */
	@Override
	public void close() {
		this.base.close();
	}

	/** Builds {@link ValueTemplates}; not thread-safe. */
	public static final class Builder {

		private final LettuceConnectionFactory factory;

		private @Nullable FormatRouter router;

		private @Nullable ByteBufAllocator allocator;

		private @Nullable Integer database;

		private int callerThreadDecodingFrom = TemplateSettings.DEFAULT_CALLER_DECODE_FROM;

		private UnacknowledgedWrites unacknowledgedWrites = UnacknowledgedWrites.FAIL;

		private int chunkSize = TemplateSettings.DEFAULT_CHUNK_SIZE;

		private int transferWindow = ReactiveLargeValueTransfer.DEFAULT_WINDOW;

		private ObservationRegistry observations = ObservationRegistry.NOOP;

		private Builder(LettuceConnectionFactory factory) {
			Assert.notNull(factory, "factory must not be null");
			this.factory = factory;
		}

		/** The router that chooses each type's format; a default router (JSON unless annotated) if unset. */
		public Builder formatRouter(FormatRouter router) {
			Assert.notNull(router, "router must not be null");
			this.router = router;
			return this;
		}

		/** The allocator values are encoded into; Netty's pooled default if unset. */
		public Builder allocator(ByteBufAllocator allocator) {
			Assert.notNull(allocator, "allocator must not be null");
			this.allocator = allocator;
			return this;
		}

		/** The database commands go to; the factory's if unset. */
		public Builder database(int database) {
			if (database < 0) {
				throw new IllegalArgumentException("database must not be negative, was " + database);
			}
			this.database = database;
			return this;
		}

		/**
		 * The stored size from which sync reads decode on the caller's thread instead of the
		 * event loop, in bytes ({@link ValueTemplate#withCallerThreadDecodingFrom(int)}); 16 KiB
		 * if unset, {@code 0} for every value, {@link Integer#MAX_VALUE} for none.
		 */
		public Builder callerThreadDecodingFrom(int bytes) {
			if (bytes < 0) {
				throw new IllegalArgumentException("bytes must not be negative, was " + bytes);
			}
			this.callerThreadDecodingFrom = bytes;
			return this;
		}

		/**
		 * What every template does with a write whose reply was lost with its connection
		 * ({@link ValueTemplate#withUnacknowledgedWrites}); {@link UnacknowledgedWrites#FAIL} if unset.
		 */
		public Builder unacknowledgedWrites(UnacknowledgedWrites unacknowledgedWrites) {
			Assert.notNull(unacknowledgedWrites, "unacknowledgedWrites must not be null");
			this.unacknowledgedWrites = unacknowledgedWrites;
			return this;
		}

		/**
		 * The chunk size of every template's {@code upload} and {@code download}, in bytes
		 * ({@link ValueTemplate#withChunkSize(int)}); 256 KiB if unset.
		 */
		public Builder chunkSize(int bytes) {
			if (bytes < 1) {
				throw new IllegalArgumentException("bytes must be at least 1, was " + bytes);
			}
			this.chunkSize = bytes;
			return this;
		}

		/**
		 * The chunks every reactive {@code upload} and {@code download} holds at most
		 * ({@link ValueTemplate#withTransferWindow(int)}); 8 if unset.
		 */
		public Builder transferWindow(int chunks) {
			if (chunks < 1) {
				throw new IllegalArgumentException("chunks must be at least 1, was " + chunks);
			}
			this.transferWindow = chunks;
			return this;
		}

		/**
		 * Where every template's commands are observed
		 * ({@link ValueTemplate#withObservationRegistry(ObservationRegistry)}); none if unset.
		 */
		public Builder observationRegistry(ObservationRegistry observations) {
			Assert.notNull(observations, "observations must not be null");
			this.observations = observations;
			return this;
		}

		/** The templates. */
		public ValueTemplates build() {
			return new ValueTemplates(this);
		}

	}

}
