package dev.slipcase.redis.serializer;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * Builds the {@link SerializationException}s every format throws, so that messages read alike:
 * {@code "<format>: <what was wrong>"}.
 */
final class FormatErrors {

	private FormatErrors() {
	}

	static SerializationException error(String formatName, String what) {
		return new SerializationException(formatName + ": " + what);
	}

	static SerializationException error(String formatName, String what, @Nullable Throwable cause) {
		if (cause instanceof SerializationException serializationException
				&& serializationException.getMessage() != null
				&& serializationException.getMessage().startsWith(formatName + ":")) {
			return serializationException;
		}
		String detail = (cause != null) ? cause.getClass().getSimpleName() + ": " + firstLine(cause.getMessage()) : "";
		return new SerializationException(formatName + ": " + what + (detail.isEmpty() ? "" : " (" + detail + ")"),
				cause);
	}

	/**
	 * Turns whatever a library threw while decoding into a {@link SerializationException}, and
	 * lets errors the JVM cannot survive pass. {@link StackOverflowError} (deeply nested hostile
	 * input) is survivable and converted.
	 */
	static SerializationException decodeFailure(String formatName, Throwable failure) {
		if (failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError)) {
			throw (VirtualMachineError) failure;
		}
		if (failure instanceof StackOverflowError) {
			return error(formatName, "value nested too deeply", failure);
		}
		return error(formatName, "cannot decode value", failure);
	}

	static SerializationException encodeFailure(String formatName, Throwable failure) {
		if (failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError)) {
			throw (VirtualMachineError) failure;
		}
		return error(formatName, "cannot encode value", failure);
	}

	private static String firstLine(@Nullable String message) {
		if (message == null) {
			return "";
		}
		int newline = message.indexOf('\n');
		String line = (newline >= 0) ? message.substring(0, newline) : message;
		return (line.length() > 300) ? line.substring(0, 300) + "..." : line;
	}

}
