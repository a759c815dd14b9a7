package dev.slipcase.redis.serializer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import dev.slipcase.redis.benchmark.Payload;

import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Prints the table of bytes stored per payload by each serializer candidate, as a Markdown table
 * with each size also as a ratio of Spring Data's generic JSON:
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.serializer.StoredSizeReport</pre>
 * Sizes are deterministic (the payloads are built from fixed seeds), so no JMH run is needed.
 */
public final class StoredSizeReport {

	private static final String BASELINE = "spring-generic-json";

	private StoredSizeReport() {
	}

	public static void main(String[] args) {
		print(System.out, List.copyOf(SerializerCandidates.names()));
	}

	/** The stored-size table for every candidate, as Markdown. */
	public static String markdown() {
		ByteArrayOutputStream text = new ByteArrayOutputStream();
		print(new PrintStream(text, true, StandardCharsets.UTF_8), List.copyOf(SerializerCandidates.names()));
		return "Bytes stored per payload and serializer, with the ratio to `" + BASELINE + "`:\n\n"
				+ text.toString(StandardCharsets.UTF_8);
	}

	static void print(PrintStream out, List<String> candidates) {
		StringBuilder header = new StringBuilder("| payload |");
		StringBuilder rule = new StringBuilder("| --- |");
		for (String candidate : candidates) {
			header.append(' ').append(candidate).append(" |");
			rule.append(" ---: |");
		}
		out.println(header);
		out.println(rule);
		for (Payload payload : Payload.values()) {
			int baseline = size(BASELINE, payload);
			StringBuilder row = new StringBuilder("| ").append(payload).append(" |");
			for (String candidate : candidates) {
				int size = size(candidate, payload);
				row.append(String.format(Locale.ROOT, " %,d B (%.2f×) |", size, (double) size / baseline));
			}
			out.println(row);
		}
	}

	/** The bytes {@code candidate} stores for {@code payload}, after checking they read back equal. */
	static int size(String candidate, Payload payload) {
		RedisSerializer<Object> serializer = SerializerCandidates.create(candidate, payload);
		Object value = payload.value();
		byte[] bytes = serializer.serialize(value);
		Object read = serializer.deserialize(bytes);
		if (!value.equals(read)) {
			throw new IllegalStateException(candidate + " did not read back " + payload);
		}
		return bytes.length;
	}

}
