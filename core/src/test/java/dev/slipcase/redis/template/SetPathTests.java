package dev.slipcase.redis.template;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Slipcase classes whose code runs for one {@code ValueTemplate.set}, from the call to the
 * socket and back: JFR's method tracing of every class of slipcase-core around one {@code SET} of a
 * warmed-up template on a real Redis, in a JVM of its own (tracing retransforms the classes it
 * filters, which breaks records for the JVM's later tests). Method tracing exists from JDK 25 on,
 * so this runs in CI's newest-JDK pass; it prints each class with the methods it ran and their
 * threads: {@code JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -pl core test -Dtest=SetPathTests}.
 */
@EnabledForJreRange(minVersion = 25)
class SetPathTests {

	/** The command path issue 44 asks for: at most nine classes from the template to the socket. */
	private static final int MOST_COMMAND_PATH_CLASSES = 9;

	@Test
	void aSetCrossesAtMostNineClassesBesidesTheValuesFormat() throws Exception {
		Map<String, Set<String>> path = traceInAJvmOfItsOwn();
		path.forEach((type, methods) -> System.out.println(type + "  " + methods));
		List<String> commandPath = path.keySet().stream().filter((type) -> !isValueEncoding(type)).toList();
		assertThat(commandPath).as("the classes a SET runs, beside its format's").contains(
				ValueTemplate.class.getName(), "dev.slipcase.redis.lettuce.OrderedDispatcher",
				"dev.slipcase.redis.codec.EncodedValueCodec");
		assertThat(commandPath).as("the classes a SET runs, beside its format's")
			.hasSizeLessThanOrEqualTo(MOST_COMMAND_PATH_CLASSES);
	}

	/**
	 * Whether {@code type} encodes the value or counts its bytes, rather than carries the command:
	 * the template's format (another format has other classes) and the observer it reports to.
	 */
	private static boolean isValueEncoding(String type) {
		return type.startsWith("dev.slipcase.redis.serializer.") || type.startsWith("dev.slipcase.redis.metrics.");
	}

	/** {@link #trace()} run by {@link Trace} in a new JVM of this one's JDK and class path. */
	private static Map<String, Set<String>> traceInAJvmOfItsOwn() throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Trace.class.getName())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		Map<String, Set<String>> path = new TreeMap<>();
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				String[] parts = line.split("\t");
				if (parts.length == 2 && parts[0].startsWith("dev.slipcase.redis.")) {
					path.computeIfAbsent(parts[0], (type) -> new TreeSet<>()).add(parts[1]);
				}
			}
		}
		assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the tracing JVM ended").isTrue();
		assertThat(process.exitValue()).as("the tracing JVM's exit code").isZero();
		return path;
	}

	/** Traces one {@code SET} and prints each class and method that ran, a tab between them. */
	static final class Trace {

		public static void main(String[] args) throws Exception {
			trace().forEach((type, methods) -> methods.forEach((method) -> System.out.println(type + "\t" + method)));
		}

	}

	/** Each traced class and the methods of it that ran ({@code name [thread]}). */
	private static Map<String, Set<String>> trace() throws Exception {
		String filter = String.join(";", coreClasses());
		Map<String, Set<String>> path = new TreeMap<>();
		try (RedisServer server = RedisServers.start()) {
			RedisClient client = RedisClient.create(server.endpoint().uri());
			try (ValueTemplate<String> template = ValueTemplate.create(client,
					RedisURI.create(server.endpoint().uri()), Utf8StringFormat.INSTANCE)) {
				for (int i = 0; i < 2000; i++) {
					template.set("k" + (i % 10), "value");
				}
				Path out = Files.createTempFile("set-path", ".jfr");
				try (Recording recording = new Recording()) {
					recording.enable("jdk.MethodTrace").with("filter", filter);
					recording.start();
					template.set("k1", "value");
					Thread.sleep(200); // the event loop's part, after the caller returned
					recording.stop();
					recording.dump(out);
				}
				for (RecordedEvent event : RecordingFile.readAllEvents(out)) {
					if (event.getEventType().getName().equals("jdk.MethodTrace")) {
						RecordedMethod method = event.getValue("method");
						String thread = (event.getThread() != null) ? event.getThread().getJavaName() : "?";
						path.computeIfAbsent(method.getType().getName(), (type) -> new TreeSet<>())
							.add(method.getName() + " [" + thread + "]");
					}
				}
				Files.delete(out);
			}
			finally {
				client.shutdown();
			}
		}
		return path;
	}

	/** The classes of slipcase-core's main output, lambdas and package-infos aside. */
	private static List<String> coreClasses() throws Exception {
		Path classes = Path.of(ValueTemplate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		try (Stream<Path> files = Files.walk(classes)) {
			return files.map((file) -> classes.relativize(file).toString().replace('\\', '/'))
				.filter((entry) -> entry.endsWith(".class") && !entry.contains("package-info")
						&& !entry.contains("Lambda"))
				.map((entry) -> entry.substring(0, entry.length() - ".class".length()).replace('/', '.'))
				.toList();
		}
	}

}
