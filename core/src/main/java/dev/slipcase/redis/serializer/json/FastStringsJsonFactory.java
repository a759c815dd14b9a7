package dev.slipcase.redis.serializer.json;

import java.io.OutputStream;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Jackson's JSON factory for Slipcase's default mapper, whose generators and byte-array parsers
 * write and read plain ASCII strings with a copy instead of a character at a time (most of the
 * CPU of a text-heavy value): {@link FastStringsJsonGenerator}, {@link FastStringsJsonParser}.
 * The JSON is the same; input that may not be UTF-8 (a byte-order mark, a zero byte among the
 * first two that UTF-16 or UTF-32 would have) and input from streams or readers get Jackson's own
 * parsers, as do factories that do not canonicalise property names (Jackson reads those with its
 * char-based parser).
 */
final class FastStringsJsonFactory extends JsonFactory {

	private static final long serialVersionUID = 1L;

	/** A factory with the settings of {@code settings}: features, constraints, escapes, quote character. */
	FastStringsJsonFactory(JsonFactory settings) {
		super(settings);
	}

	@Override
	public JsonFactory copy() {
		return new FastStringsJsonFactory(this);
	}

	@Override
	protected JsonParser _createParser(ObjectReadContext readContext, IOContext ioContext, byte[] data, int offset,
			int length) throws JacksonException {
		_checkRangeBoundsForByteArray(data, offset, length);
		if (!Feature.CANONICALIZE_PROPERTY_NAMES.enabledIn(this._factoryFeatures)
				|| !isPlainUtf8Start(data, offset, length)) {
			return super._createParser(readContext, ioContext, data, offset, length);
		}
		this._streamReadConstraints.validateDocumentLength(length);
		return new FastStringsJsonParser(readContext, ioContext, readContext.getStreamReadFeatures(this._streamReadFeatures),
				readContext.getFormatReadFeatures(this._formatReadFeatures),
				this._byteSymbolCanonicalizer.makeChild(this._factoryFeatures), data, offset, offset + length);
	}

	/**
	 * Whether the bytes start as only UTF-8 JSON can: an ASCII byte other than zero, and no zero
	 * byte next to it. A byte-order mark starts with a byte above {@code 0x7F}. The range is
	 * checked already.
	 */
	private static boolean isPlainUtf8Start(byte[] data, int offset, int length) {
		return length >= 2 && data[offset] > 0 && data[offset + 1] != 0;
	}

	@Override
	protected JsonGenerator _createUTF8Generator(ObjectWriteContext writeContext, IOContext ioContext,
			OutputStream out) throws JacksonException {
		CharacterEscapes escapes = writeContext.getCharacterEscapes();
		return new FastStringsJsonGenerator(writeContext, ioContext,
				writeContext.getStreamWriteFeatures(this._streamWriteFeatures),
				writeContext.getFormatWriteFeatures(this._formatWriteFeatures), out,
				writeContext.getRootValueSeparator(this._rootValueSeparator),
				(escapes != null) ? escapes : this._characterEscapes, writeContext.getPrettyPrinter(),
				this._maximumNonEscapedChar, this._quoteChar);
	}

}
