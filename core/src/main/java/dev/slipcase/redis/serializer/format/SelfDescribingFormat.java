package dev.slipcase.redis.serializer.format;

import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.metrics.SlipcaseObservationContext;
import dev.slipcase.redis.metrics.SlipcaseObservationDocumentation;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.compression.Compressor;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * The wire format of stored values: writes with one {@link TaggedFormat}, optionally compressed,
 * and says so in a {@link FormatHeader}; reads any of several formats and compressors by that
 * header, so an application can change format or compression and still read every value already
 * stored (read old, write new).
 * <p>
 * Uncompressed text formats (strings, JSON, numbers) are written bare, with no header, so they
 * stay readable in {@code redis-cli} and usable by {@code INCRBY}; a value without a header is
 * read with the text format among those configured. Binary formats always carry a header.
 * <p>
 * Compression (the decorator over any format): a value whose encoded body is smaller than the
 * minimum size, or that does not shrink, is stored uncompressed; otherwise it is stored as header
 * plus compressed body. Decompression is capped at {@code maxDecompressedSize}, which is passed to
 * {@link Compressor#decompress} and also bounds the scratch buffer. Each compression is reported
 * to {@link SlipcaseObservers#current()} with the body's size before and after.
 * <p>
 * Scratch buffers (the body before compression, the body after decompression) come from the
 * configured allocator and are released before each call returns, also when it throws; {@code in}
 * and {@code out} belong to the caller and are never released. Immutable and thread-safe.
 *
 * @param <T> the type of value
 */
public final class SelfDescribingFormat<T> implements ValueFormat<T> {

	/** The default cap on a value's decompressed size: 32 MiB. */
	public static final int DEFAULT_MAX_DECOMPRESSED_SIZE = 32 * 1024 * 1024;

	/** The default minimum body size, in bytes, for compression to be tried. */
	public static final int DEFAULT_MIN_COMPRESS_SIZE = 128;

	private final TaggedFormat<T> writeFormat;

	private final @Nullable Compressor compressor;

	private final int minCompressSize;

	private final @Nullable TaggedFormat<T>[] readFormats;

	private final @Nullable TaggedFormat<T> headerless;

	private final CompressorLookup compressors;

	private final int maxDecompressedSize;

	private final ByteBufAllocator allocator;

	private final String name;

	private final SlipcaseObserver observer;

	private final ObservationRegistry observations;

	@SuppressWarnings("unchecked")
	private SelfDescribingFormat(Builder<T> builder) {
		this.writeFormat = builder.writeFormat;
		this.compressor = builder.compressor;
		this.minCompressSize = builder.minCompressSize;
		this.readFormats = (TaggedFormat<T>[]) new TaggedFormat<?>[256];
		TaggedFormat<T> headerless = null;
		for (TaggedFormat<T> format : builder.readFormats) {
			if (this.readFormats[format.formatId()] == null) {
				this.readFormats[format.formatId()] = format;
			}
			if (headerless == null && format.isText()) {
				headerless = format;
			}
		}
		this.headerless = headerless;
		this.compressors = (this.compressor != null) ? builder.compressors.with(this.compressor) : builder.compressors;
		this.maxDecompressedSize = builder.maxDecompressedSize;
		this.allocator = builder.allocator;
		this.name = this.writeFormat.name() + ((this.compressor != null) ? "+" + this.compressor.name() : "");
		this.observer = builder.observer;
		this.observations = builder.observations;
	}

	/**
	 * Compresses {@code body} into {@code out} after the header written at {@code mark}; the
	 * compressed length. Observed as {@code slipcase.redis.compression} when a registry is set.
	 */
	private int compress(Compressor compressor, ByteBuf body, ByteBuf out, int mark) {
		if (this.observations.isNoop()) {
			compressor.compress(body, out);
			return out.writerIndex() - mark - FormatHeader.LENGTH;
		}
		return SlipcaseObservationDocumentation.COMPRESSION
			.start(this.observations, "compress", SlipcaseObservationContext.NO_NAMESPACE, this.name)
			.run((call) -> {
				call.rawBytes(body.readableBytes());
				compressor.compress(body, out);
				int compressedLength = out.writerIndex() - mark - FormatHeader.LENGTH;
				call.storedBytes(compressedLength);
				return compressedLength;
			});
	}

	/** A builder of a format that writes with {@code writeFormat} (and reads it). */
	public static <T> Builder<T> builder(TaggedFormat<T> writeFormat) {
		Assert.notNull(writeFormat, "writeFormat must not be null");
		return new Builder<>(writeFormat);
	}

	/** A format that writes and reads {@code format}, uncompressed, with a header only if binary. */
	public static <T> SelfDescribingFormat<T> of(TaggedFormat<T> format) {
		return builder(format).build();
	}

	@Override
	public void encode(T value, ByteBuf out) {
		Compressor compressor = this.compressor;
		if (compressor == null) {
			if (!this.writeFormat.isText()) {
				FormatHeader.write(out, this.writeFormat.formatId(), 0);
			}
			this.writeFormat.encode(value, out);
			return;
		}
		ByteBuf body = this.allocator.buffer(this.writeFormat.estimateSize(value));
		try {
			this.writeFormat.encode(value, body);
			int bodyStart = body.readerIndex();
			int bodyLength = body.readableBytes();
			if (bodyLength >= this.minCompressSize) {
				int mark = out.writerIndex();
				FormatHeader.write(out, this.writeFormat.formatId(), compressor.id());
				int compressedLength = compress(compressor, body, out, mark);
				this.observer.compressed(compressor.name(), bodyLength, compressedLength);
				if (compressedLength < bodyLength) {
					return;
				}
				out.writerIndex(mark);
				body.readerIndex(bodyStart);
			}
			if (!this.writeFormat.isText()) {
				FormatHeader.write(out, this.writeFormat.formatId(), 0);
			}
			out.writeBytes(body);
		}
		catch (SerializationException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw FormatErrors.encodeFailure(this.name, ex);
		}
		finally {
			body.release();
		}
	}

	@Override
	public T decode(ByteBuf in) {
		if (!in.isReadable()) {
			throw FormatErrors.error(this.name, "empty value");
		}
		if (!FormatHeader.isHeader(in.getByte(in.readerIndex()))) {
			TaggedFormat<T> headerless = this.headerless;
			if (headerless == null) {
				throw FormatErrors.error(this.name, "value has no Slipcase header (first byte 0x"
						+ Integer.toHexString(in.getByte(in.readerIndex()) & 0xFF) + "), and " + readableNames()
						+ " are binary formats that always carry one");
			}
			return headerless.decode(in);
		}
		int header = FormatHeader.read(in, this.name);
		int formatId = FormatHeader.formatId(header);
		int compressorId = FormatHeader.compressorId(header);
		TaggedFormat<T> format = this.readFormats[formatId];
		if (format == null) {
			throw FormatErrors.error(this.name, "value is in format id " + formatId + " (" + formatName(formatId)
					+ "), which this serializer does not read; it reads " + readableNames());
		}
		if (compressorId == 0) {
			return format.decode(in);
		}
		Compressor compressor = this.compressors.byId(compressorId);
		if (compressor == null) {
			throw FormatErrors.error(this.name, "value is compressed with compressor id " + compressorId
					+ ", which is not registered; registered: " + this.compressors.names());
		}
		ByteBuf plain = this.allocator.buffer(Math.min(Math.max(64, in.readableBytes() * 4), this.maxDecompressedSize),
				this.maxDecompressedSize);
		try {
			try {
				compressor.decompress(in, plain, this.maxDecompressedSize);
			}
			catch (RuntimeException ex) {
				throw FormatErrors.error(this.name, "cannot decompress a " + format.name() + " value with "
						+ compressor.name() + " (cap " + this.maxDecompressedSize + " bytes)", ex);
			}
			T value = format.decode(plain);
			if (plain.isReadable()) {
				throw FormatErrors.error(this.name, plain.readableBytes() + " bytes left after the value");
			}
			return value;
		}
		catch (SerializationException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw FormatErrors.decodeFailure(this.name + " (" + compressor.name() + ")", ex);
		}
		finally {
			plain.release();
		}
	}

	private List<String> readableNames() {
		List<String> names = new ArrayList<>();
		for (TaggedFormat<T> format : this.readFormats) {
			if (format != null) {
				names.add(format.name());
			}
		}
		return names;
	}

	private static String formatName(int formatId) {
		return switch (formatId) {
			case FormatHeader.STRING -> "string";
			case FormatHeader.JSON -> "json";
			case FormatHeader.POLYMORPHIC_JSON -> "polymorphic-json";
			case FormatHeader.PROTOSTUFF -> "protostuff";
			case FormatHeader.NUMBER -> "number";
			case FormatHeader.BYTES -> "bytes";
			case FormatHeader.POLYMORPHIC_PROTOSTUFF -> "polymorphic-protostuff";
			case FormatHeader.FORY -> "fory";
			default -> "unknown";
		};
	}

	@Override
	public int estimateSize(T value) {
		return this.writeFormat.estimateSize(value) + FormatHeader.LENGTH;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public SlipcaseObserver observer() {
		return this.observer;
	}

	/** The format values are written in. */
	public TaggedFormat<T> writeFormat() {
		return this.writeFormat;
	}

	/** The compressor values are written with, or {@code null} when they are not compressed. */
	public @Nullable Compressor compressor() {
		return this.compressor;
	}

	@Override
	public String toString() {
		return "SelfDescribingFormat[" + this.name + ", reads " + readableNames() + "]";
	}

	/** Builds a {@link SelfDescribingFormat}; not thread-safe. */
	public static final class Builder<T> {

		private final TaggedFormat<T> writeFormat;

		private final List<TaggedFormat<T>> readFormats = new ArrayList<>();

		private @Nullable Compressor compressor;

		private int minCompressSize = DEFAULT_MIN_COMPRESS_SIZE;

		private CompressorLookup compressors = CompressorLookup.none();

		private int maxDecompressedSize = DEFAULT_MAX_DECOMPRESSED_SIZE;

		private ByteBufAllocator allocator = BufferAllocators.defaultAllocator();

		private SlipcaseObserver observer = SlipcaseObservers.global();

		private ObservationRegistry observations = ObservationRegistry.NOOP;

		private Builder(TaggedFormat<T> writeFormat) {
			this.writeFormat = writeFormat;
			this.readFormats.add(writeFormat);
		}

		/**
		 * Compresses values whose encoded body is at least {@code minSize} bytes with
		 * {@code compressor}.
		 */
		public Builder<T> compression(Compressor compressor, int minSize) {
			Assert.notNull(compressor, "compressor must not be null");
			if (minSize < 0) {
				throw new IllegalArgumentException("minSize must not be negative, was " + minSize);
			}
			this.compressor = compressor;
			this.minCompressSize = minSize;
			return this;
		}

		/** Also reads values in {@code format} (by its header id, or without a header if text). */
		@SafeVarargs
		public final Builder<T> readAlso(TaggedFormat<T>... formats) {
			for (TaggedFormat<T> format : formats) {
				Assert.notNull(format, "format must not be null");
				this.readFormats.add(format);
			}
			return this;
		}

		/**
		 * The compressors values may have been written with (the write compressor is always
		 * included).
		 */
		public Builder<T> compressors(CompressorLookup compressors) {
			Assert.notNull(compressors, "compressors must not be null");
			this.compressors = compressors;
			return this;
		}

		/** The largest decompressed value accepted, in bytes. */
		public Builder<T> maxDecompressedSize(int maxDecompressedSize) {
			if (maxDecompressedSize < 1) {
				throw new IllegalArgumentException(
						"maxDecompressedSize must be positive, was " + maxDecompressedSize);
			}
			this.maxDecompressedSize = maxDecompressedSize;
			return this;
		}

		/** The allocator scratch buffers come from. */
		public Builder<T> allocator(ByteBufAllocator allocator) {
			Assert.notNull(allocator, "allocator must not be null");
			this.allocator = allocator;
			return this;
		}

		/** Where the format and what uses it report what they do; {@link SlipcaseObservers#global()} by default. */
		public Builder<T> observer(SlipcaseObserver observer) {
			Assert.notNull(observer, "observer must not be null");
			this.observer = observer;
			return this;
		}

		/**
		 * Where each compression is observed ({@code slipcase.redis.compression}, tagged with the
		 * format and compressor, raw and stored bytes as high-cardinality tags); none by default.
		 */
		public Builder<T> observationRegistry(ObservationRegistry observations) {
			Assert.notNull(observations, "observations must not be null");
			this.observations = observations;
			return this;
		}

		/** The format. */
		public SelfDescribingFormat<T> build() {
			return new SelfDescribingFormat<>(this);
		}

	}

}
