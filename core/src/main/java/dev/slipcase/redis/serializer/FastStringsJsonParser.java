package dev.slipcase.redis.serializer;

import tools.jackson.core.JacksonException;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.UTF8StreamJsonParser;
import tools.jackson.core.sym.ByteQuadsCanonicalizer;

/**
 * Jackson's UTF-8 parser over a byte array, reading a string value that is plain ASCII (no escape,
 * no multi-byte character) and ends within the array as one copy into a Latin-1 {@code String},
 * instead of decoding it a byte at a time into a char buffer and compacting that again. Jackson's
 * own length limit applies ({@code TextBuffer.resetWithASCII} checks it); every other string,
 * and everything else, is Jackson's own code.
 */
final class FastStringsJsonParser extends UTF8StreamJsonParser {

	FastStringsJsonParser(ObjectReadContext readContext, IOContext ioContext, int streamReadFeatures,
			int formatReadFeatures, ByteQuadsCanonicalizer names, byte[] input, int start, int end) {
		super(readContext, ioContext, streamReadFeatures, formatReadFeatures, null, names, input, start, end, 0,
				false);
	}

	@Override
	protected String _finishAndReturnString() throws JacksonException {
		int start = this._inputPtr;
		int end = PlainAscii.end(this._inputBuffer, start, this._inputEnd);
		if (end < this._inputEnd && this._inputBuffer[end] == '"') {
			String value = this._textBuffer.resetWithASCII(this._inputBuffer, start, end - start);
			this._inputPtr = end + 1;
			return value;
		}
		return super._finishAndReturnString();
	}

}
