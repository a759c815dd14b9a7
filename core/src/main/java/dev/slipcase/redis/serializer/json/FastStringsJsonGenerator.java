package dev.slipcase.redis.serializer.json;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReferenceArray;

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
 * at-a-time scan; strings that are short, long, or not plain, and a generator escaping other than
 * as JSON's defaults (custom escapes, set when it was made or since; another quote character;
 * escaped slashes), are Jackson's own code. The output is byte for byte what Jackson writes.
 * Buffers are the generator's own, recycled by Jackson when it is closed; the encoder is borrowed
 * from a small shared pool on the first plain string and given back when the generator closes.
 */
final class FastStringsJsonGenerator extends UTF8JsonGenerator {

	/** Below this a string is cheaper to write Jackson's way than to check. */
	static final int MIN_LENGTH = 32;

	private @Nullable Latin1 latin1;

	FastStringsJsonGenerator(ObjectWriteContext writeContext, IOContext ioContext, int streamWriteFeatures,
			int formatWriteFeatures, OutputStream out, SerializableString rootValueSeparator,
			@Nullable CharacterEscapes escapes, @Nullable PrettyPrinter prettyPrinter, int maximumNonEscapedChar,
			char quoteChar) {
		super(writeContext, ioContext, streamWriteFeatures, formatWriteFeatures, out, rootValueSeparator, escapes,
				prettyPrinter, maximumNonEscapedChar, quoteChar);
	}

	/**
	 * Whether plain strings are copied: the generator escapes as JSON's defaults do, now (escapes
	 * can be set on a generator at any time).
	 */
	boolean copiesPlainStrings() {
		return this._characterEscapes == null && this._quoteChar == '"'
				&& this._outputEscapes == DEFAULT_OUTPUT_ESCAPES;
	}

	@Override
	@SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exact for the ASCII it is given
	public JsonGenerator writeString(@Nullable String text) throws JacksonException {
		if (text == null || !copiesPlainStrings()) {
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
		Latin1 latin1 = this.latin1;
		if (latin1 == null) {
			latin1 = Latin1.borrow();
			this.latin1 = latin1;
		}
		return latin1.encode(this._charBuffer, length, this._outputBuffer, from, this._outputEnd)
				&& PlainAscii.end(this._outputBuffer, from, this._outputEnd) == this._outputEnd;
	}

	@Override
	protected void _releaseBuffers() {
		super._releaseBuffers();
		Latin1 latin1 = this.latin1;
		if (latin1 != null) {
			this.latin1 = null;
			latin1.giveBack();
		}
	}

	/**
	 * A Latin-1 encoder with views over the last arrays it encoded from and into, pooled in a few
	 * slots picked by thread (a thread tends to find its own again, and with it Jackson's arrays,
	 * when Jackson's recycler hands them to it again). No thread-local: nothing stays with a
	 * thread, and the pool holds at most {@value #SLOTS} of them.
	 */
	private static final class Latin1 {

		private static final int SLOTS = 16;

		private static final AtomicReferenceArray<Latin1> POOL = new AtomicReferenceArray<>(SLOTS);

		private final CharsetEncoder encoder = StandardCharsets.ISO_8859_1.newEncoder();

		private final int slot = slot();

		private @Nullable CharBuffer chars;

		private @Nullable ByteBuffer bytes;

		static Latin1 borrow() {
			Latin1 pooled = POOL.getAndSet(slot(), null);
			return (pooled != null) ? pooled : new Latin1();
		}

		void giveBack() {
			POOL.lazySet(this.slot, this);
		}

		private static int slot() {
			return System.identityHashCode(Thread.currentThread()) & (SLOTS - 1);
		}

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
