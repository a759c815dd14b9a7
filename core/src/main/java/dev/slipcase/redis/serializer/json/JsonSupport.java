package dev.slipcase.redis.serializer.json;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Function;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import tools.jackson.core.JsonParser;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jackson plumbing shared by the JSON formats: the default mapper and reading/writing straight
 * from and to a {@link ByteBuf} of any kind without copying it.
 */
public final class JsonSupport {

	/**
	 * Jackson 3's defaults: records, {@code java.time} as ISO-8601 strings, {@code Optional} and
	 * the other JDK 8 types are built in; unknown properties are ignored and trailing tokens are
	 * refused. Plus {@link FastInstants} and {@link FastRecordCreators}, which read and write the same JSON
	 * with less garbage, and {@link FastStringsJsonFactory}, which writes and reads plain ASCII
	 * strings with a copy each.
	 */
	public static final JsonMapper DEFAULT_MAPPER = JsonMapper.builder(new FastStringsJsonFactory(new JsonFactory()))
		.addModule(FastInstants.module().setValueInstantiators(new FastRecordCreators()))
		.build();

	/** The largest value read from a heap copy of a direct buffer: 1 MiB. */
	public static final int MAX_HEAP_COPY = 1024 * 1024;

	private JsonSupport() {
	}

	/**
	 * Reads one value from all readable bytes of {@code in}, advancing its reader index. A buffer
	 * with no array behind it, up to {@value #MAX_HEAP_COPY} bytes, is copied into a heap buffer
	 * from its own allocator and released here: Jackson reads a byte array whole (and
	 * {@link FastStringsJsonParser} copies its strings out of it), where from a stream it would
	 * copy the same bytes in chunks and read strings split across them a byte at a time. A larger
	 * one is read as a stream, rather than held twice.
	 */
	public static <T> T read(ObjectReader reader, ByteBuf in) {
		ByteBuf bytes = arrayBacked(in);
		try {
			T value = bytes.hasArray()
					? reader.readValue(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes())
					: reader.readValue((InputStream) new ByteBufInputStream(bytes.duplicate()));
			in.readerIndex(in.writerIndex());
			return value;
		}
		finally {
			releaseCopy(bytes, in);
		}
	}

	/**
	 * Reads all readable bytes of {@code in} with a parser that {@code reading} is given and that is
	 * closed when it returns; the caller advances {@code in} afterwards. As in {@link #read}, a buffer
	 * with no array behind it, up to {@value #MAX_HEAP_COPY} bytes, is read from a heap copy made
	 * from its own allocator and released here, whatever {@code reading} returns or throws; a larger
	 * one is read as a stream.
	 */
	public static <T> T parse(JsonMapper mapper, ByteBuf in, Function<JsonParser, T> reading) {
		ByteBuf bytes = arrayBacked(in);
		try (JsonParser parser = parser(mapper, bytes)) {
			return reading.apply(parser);
		}
		finally {
			releaseCopy(bytes, in);
		}
	}

	/**
	 * The readable bytes of {@code in} with an array behind them when that takes at most a copy of
	 * {@value #MAX_HEAP_COPY} bytes: {@code in} itself when it has an array or is larger, else a
	 * heap copy from its own allocator, which the caller gives to {@link #releaseCopy}. Never moves
	 * {@code in}'s reader index.
	 */
	private static ByteBuf arrayBacked(ByteBuf in) {
		int length = in.readableBytes();
		if (in.hasArray() || length > MAX_HEAP_COPY) {
			return in;
		}
		ByteBuf copy = in.alloc().heapBuffer(length);
		try {
			return copy.writeBytes(in, in.readerIndex(), length);
		}
		catch (RuntimeException | Error ex) {
			copy.release();
			throw ex;
		}
	}

	/** Releases what {@link #arrayBacked} returned for {@code in}, when it was a copy. */
	private static void releaseCopy(ByteBuf bytes, ByteBuf in) {
		if (bytes != in) {
			bytes.release();
		}
	}

	/**
	 * A parser over all readable bytes of {@code in}, streaming them when it has no array behind it
	 * (enough to look at a value's first tokens); the caller advances {@code in} afterwards.
	 */
	public static JsonParser parser(JsonMapper mapper, ByteBuf in) {
		if (in.hasArray()) {
			return mapper.createParser(in.array(), in.arrayOffset() + in.readerIndex(), in.readableBytes());
		}
		return mapper.createParser((InputStream) new ByteBufInputStream(in.duplicate()));
	}

	/** An output stream appending to {@code out}; closing it never releases {@code out}. */
	public static OutputStream output(ByteBuf out) {
		return new ByteBufOutputStream(out);
	}

}
