package dev.slipcase.redis.serializer;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.PrettyPrinter;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.UTF8JsonGenerator;

/**
 * Jackson's UTF-8 generator, writing a string value that is plain ASCII (nothing to escape) as one
 * copy instead of a character at a time. Whether a string is plain is found with the JDK's
 * vectorised Latin-1 encoder, into the free end of the generator's own output buffer, and a word-
 * at-a-time scan; strings that are short, long, or not plain, and generators with escaping other
 * than JSON's defaults (custom escapes, another quote character, escaped slashes), are Jackson's
 * own code. The output is byte for byte what Jackson writes. Buffers are the generator's own,
 * recycled by Jackson when it is closed.
 */
final class FastStringsJsonGenerator extends UTF8JsonGenerator {

	/** Below this a string is cheaper to write Jackson's way than to check. */
	static final int MIN_LENGTH = 32;

	private final boolean plainStringsCopied;

	/**
	 * Each thread's encoder and buffer views, kept across generators: Jackson's buffer recycler
	 * hands a thread the same arrays again, so the views are made once per thread, not per value.
	 */
	private static final ThreadLocal<Latin1> LATIN1 = ThreadLocal.withInitial(Latin1::new);

	FastStringsJsonGenerator(ObjectWriteContext writeContext, IOContext ioContext, int streamWriteFeatures,
			int formatWriteFeatures, OutputStream out, SerializableString rootValueSeparator,
			@Nullable CharacterEscapes escapes, @Nullable PrettyPrinter prettyPrinter, int maximumNonEscapedChar,
			char quoteChar) {
		super(writeContext, ioContext, streamWriteFeatures, formatWriteFeatures, out, rootValueSeparator, escapes,
				prettyPrinter, maximumNonEscapedChar, quoteChar);
		this.plainStringsCopied = this._characterEscapes == null && this._quoteChar == '"'
				&& this._outputEscapes == DEFAULT_OUTPUT_ESCAPES;
	}

	/** Whether plain strings are copied: the generator escapes as JSON's defaults do. */
	boolean copiesPlainStrings() {
		return this.plainStringsCopied;
	}

	@Override
	@SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exact for the ASCII it is given
	public JsonGenerator writeString(@Nullable String text) throws JacksonException {
		if (text == null || !this.plainStringsCopied) {
			return super.writeString(text);
		}
		int length = text.length();
		if (length < MIN_LENGTH || length > this._charBufferLength || length + 2 > this._outputEnd
				|| !isPlain(text, length)) {
			return super.writeString(text);
		}
		_verifyValueWrite(WRITE_STRING);
		if (this._outputTail + length + 2 > this._outputEnd) {
			_flushBuffer();
		}
		this._outputBuffer[this._outputTail++] = '"';
		text.getBytes(0, length, this._outputBuffer, this._outputTail);
		this._outputTail += length;
		this._outputBuffer[this._outputTail++] = '"';
		return this;
	}

	/**
	 * Encodes {@code text} as Latin-1 into the end of the output buffer, past what is waiting to be
	 * flushed, and scans what it wrote.
	 */
	private boolean isPlain(String text, int length) {
		if (this._outputTail > this._outputEnd - length) {
			_flushBuffer();
		}
		text.getChars(0, length, this._charBuffer, 0);
		int from = this._outputEnd - length;
		return LATIN1.get().encode(this._charBuffer, length, this._outputBuffer, from, this._outputEnd)
				&& PlainAscii.end(this._outputBuffer, from, this._outputEnd) == this._outputEnd;
	}

	/** A thread's Latin-1 encoder, with views over the last arrays it encoded from and into. */
	private static final class Latin1 {

		private final CharsetEncoder encoder = StandardCharsets.ISO_8859_1.newEncoder();

		private @Nullable CharBuffer chars;

		private @Nullable ByteBuffer bytes;

		/** Whether {@code source[0, length)} is all Latin-1, encoded into {@code target[from, to)}. */
		boolean encode(char[] source, int length, byte[] target, int from, int to) {
			CharBuffer chars = this.chars;
			if (chars == null || chars.array() != source) {
				chars = CharBuffer.wrap(source);
				this.chars = chars;
			}
			ByteBuffer bytes = this.bytes;
			if (bytes == null || bytes.array() != target) {
				bytes = ByteBuffer.wrap(target);
				this.bytes = bytes;
			}
			chars.limit(length).position(0);
			bytes.limit(to).position(from);
			CoderResult result = this.encoder.reset().encode(chars, bytes, true);
			return !result.isError() && bytes.position() == to;
		}

	}

}
