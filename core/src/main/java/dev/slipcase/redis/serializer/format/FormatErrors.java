package dev.slipcase.redis.serializer.format;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * Builds the {@link SerializationException}s every format throws, here and in the format
 * packages below, so that messages read alike: {@code "<format>: <what was wrong>"}.
 */
public final class FormatErrors {

	private FormatErrors() {
	}

	public static SerializationException error(String formatName, String what) {
		return new SerializationException(formatName + ": " + what);
	}

	public static SerializationException error(String formatName, String what, @Nullable Throwable cause) {
		if (cause instanceof SerializationException serializationException
				&& serializationException.getMessage() != null
				&& serializationException.getMessage().startsWith(formatName + ":")) {
			return serializationException;
		}
		String detail = (cause != null) ? inWords(cause) : "";
		return new SerializationException(formatName + ": " + what + (detail.isEmpty() ? "" : ": " + detail), cause);
	}

	/**
	 * What {@code failure} says, in words a person reads in a log: the library's own message
	 * without exception class names, parser locations or buffer internals (reader and writer
	 * indexes, allocator classes), which say nothing about the value.
	 */
	public static String inWords(Throwable failure) {
		if (failure instanceof java.io.EOFException) {
			return "the value ends early (it is truncated)";
		}
		if (failure instanceof IndexOutOfBoundsException) {
			return "a length or offset in the value runs past its end (the value is truncated, or a length field is corrupt)";
		}
		if (failure instanceof JacksonException jackson) {
			return firstLine(jackson.getOriginalMessage());
		}
		String message = firstLine(failure.getMessage());
		if (message.isEmpty() || INTERNALS.matcher(message).find()) {
			return (failure instanceof NumberFormatException) ? "a number is malformed"
					: "the value is malformed (" + failure.getClass().getSimpleName().replaceAll("(?<=[a-z])(?=[A-Z])", " ")
						.toLowerCase(java.util.Locale.ROOT) + ")";
		}
		return message;
	}

	/**
	 * Turns whatever a library threw while decoding into a {@link SerializationException}, and
	 * lets errors the JVM cannot survive pass. {@link StackOverflowError} (deeply nested hostile
	 * input) is survivable and converted.
	 */
	public static SerializationException decodeFailure(String formatName, Throwable failure) {
		if (failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError)) {
			throw (VirtualMachineError) failure;
		}
		if (failure instanceof StackOverflowError) {
			return error(formatName, "value nested too deeply", failure);
		}
		return error(formatName, "cannot decode value", failure);
	}

	public static SerializationException encodeFailure(String formatName, Throwable failure) {
		if (failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError)) {
			throw (VirtualMachineError) failure;
		}
		return error(formatName, "cannot encode value", failure);
	}

	/** Words in a library message that name buffer internals rather than the value. */
	private static final Pattern INTERNALS = Pattern.compile("ByteBuf|writerIndex|readerIndex|maxCapacity|Adaptive");

	private static String firstLine(@Nullable String message) {
		if (message == null) {
			return "";
		}
		int newline = message.indexOf('\n');
		String line = (newline >= 0) ? message.substring(0, newline) : message;
		return (line.length() > 300) ? line.substring(0, 300) + "..." : line;
	}

}
