package dev.slipcase.redis.serializer;

import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.json.JsonSupport;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

/**
 * What every format a {@link FormatRouter} or a {@link SlipcaseSerializerFamily} makes shares:
 * the compressors values are read with, the largest decompressed value, the allocator of scratch
 * buffers, the JSON mapper, the observer and the observation registry. Immutable; holds no buffer.
 *
 * @param compressors the compressors values are written and read with, chosen by name
 * @param maxDecompressedSize the largest decompressed value accepted, in bytes
 * @param allocator where scratch buffers come from
 * @param mapper the mapper JSON is written and read with
 * @param observer where formats and serializers report what they do
 * @param observations where formats observe each compression
 */
public record FormatSettings(CompressorLookup compressors, int maxDecompressedSize, ByteBufAllocator allocator,
		JsonMapper mapper, SlipcaseObserver observer, ObservationRegistry observations) {

	/** The same settings, values read and written with {@code compressors}. */
	FormatSettings withCompressors(CompressorLookup compressors) {
		return new FormatSettings(compressors, this.maxDecompressedSize, this.allocator, this.mapper, this.observer,
				this.observations);
	}

	/**
	 * The setters of {@link FormatSettings} that the router's and the family's builders share.
	 *
	 * @param <B> the builder's own type, which each setter returns
	 */
	public abstract static class Builder<B extends Builder<B>> {

		CompressorLookup compressors = CompressorLookup.none();

		int maxDecompressedSize = SelfDescribingFormat.DEFAULT_MAX_DECOMPRESSED_SIZE;

		ByteBufAllocator allocator = BufferAllocators.defaultAllocator();

		JsonMapper mapper = JsonSupport.DEFAULT_MAPPER;

		SlipcaseObserver observer = SlipcaseObservers.global();

		ObservationRegistry observations = ObservationRegistry.NOOP;

		Builder() {
		}

		/** The compressors values are written and read with, chosen by name. */
		public B compressors(CompressorLookup compressors) {
			Assert.notNull(compressors, "compressors must not be null");
			this.compressors = compressors;
			return self();
		}

		/** The largest decompressed value accepted, in bytes. */
		public B maxDecompressedSize(int maxDecompressedSize) {
			if (maxDecompressedSize < 1) {
				throw new IllegalArgumentException("maxDecompressedSize must be positive, was " + maxDecompressedSize);
			}
			this.maxDecompressedSize = maxDecompressedSize;
			return self();
		}

		/** The allocator scratch buffers come from. */
		public B allocator(ByteBufAllocator allocator) {
			Assert.notNull(allocator, "allocator must not be null");
			this.allocator = allocator;
			return self();
		}

		/**
		 * The mapper JSON is written and read with; by default Slipcase's own: Jackson 3's
		 * defaults, writing the same JSON with less CPU and garbage for instants, records and
		 * plain ASCII strings.
		 */
		public B mapper(JsonMapper mapper) {
			Assert.notNull(mapper, "mapper must not be null");
			this.mapper = mapper;
			return self();
		}

		/**
		 * Where the formats and serializers made, and the templates built on them, report what they
		 * do (an application context's meters); {@link SlipcaseObservers#global()} by default.
		 */
		public B observer(SlipcaseObserver observer) {
			Assert.notNull(observer, "observer must not be null");
			this.observer = observer;
			return self();
		}

		/**
		 * Where the formats made observe each compression ({@code slipcase.redis.compression});
		 * none by default.
		 */
		public B observationRegistry(ObservationRegistry observations) {
			Assert.notNull(observations, "observations must not be null");
			this.observations = observations;
			return self();
		}

		/** Takes every setting of {@code settings}. */
		B settings(FormatSettings settings) {
			this.compressors = settings.compressors();
			this.maxDecompressedSize = settings.maxDecompressedSize();
			this.allocator = settings.allocator();
			this.mapper = settings.mapper();
			this.observer = settings.observer();
			this.observations = settings.observations();
			return self();
		}

		/** The settings as they are now. */
		FormatSettings settings() {
			return new FormatSettings(this.compressors, this.maxDecompressedSize, this.allocator, this.mapper,
					this.observer, this.observations);
		}

		@SuppressWarnings("unchecked")
		private B self() {
			return (B) this;
		}

	}

}
