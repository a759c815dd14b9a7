package dev.slipcase.redis.serializer.json;

import tools.jackson.core.JacksonException;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.UTF8StreamJsonParser;
import tools.jackson.core.sym.ByteQuadsCanonicalizer;

/**
 * Jackson's UTF-8 parser over a byte array, reading a string value that is plain ASCII (no escape,
 * no multi-byte character) and ends within the array as one copy into a Latin-1 {@code String},
 * instead of decoding it a byte at a time into a char buffer and compacting that again. Jackson's
 * own length limit applies: a plain run longer than it is left to Jackson, which refuses it with its
 * own message; every other string, and everything else, is Jackson's own code.
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
		// No further than one past the longest string allowed: a longer one is Jackson's to refuse.
		int limit = (int) Math.min(this._inputEnd, start + (long) streamReadConstraints().getMaxStringLength() + 1);
		int end = PlainAscii.end(this._inputBuffer, start, limit);
		if (end < limit && this._inputBuffer[end] == '"') {
			String value = this._textBuffer.resetWithASCII(this._inputBuffer, start, end - start);
			this._inputPtr = end + 1;
			return value;
		}
		return super._finishAndReturnString();
	}

}
