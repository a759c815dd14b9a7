package dev.slipcase.redis.template;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * The Slipcase classes whose code runs for one {@code ValueTemplate.set}, from the call to the
 * socket and back, with the methods each runs and the thread: JFR's method tracing (JDK 25 and
 * later; on an older JDK the recording holds no trace and the report says so) of every class of
 * {@code dev.slipcase.redis} but the benchmarks' and the test fixture's, around one {@code SET} of a
 * warmed-up template on a fresh Redis. The count at the end tells the command path from the value's
 * format and the observer it reports sizes to.
 * <pre>/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.template.SetPathReport</pre>
 */
public final class SetPathReport {

	private SetPathReport() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, Set<String>> path = trace();
		if (path.isEmpty()) {
			System.out.println("No method was traced: JFR's method tracing needs JDK 25 or later.");
			return;
		}
		path.forEach((type, methods) -> System.out.println(type + "  " + methods));
		long value = path.keySet().stream().filter(SetPathReport::isValueEncoding).count();
		System.out.println(path.size() + " classes: " + (path.size() - value) + " on the command path, " + value
				+ " of the value's format and the observer it reports sizes to");
	}

	/**
	 * Whether {@code type} encodes the value or counts its bytes, rather than carries the command:
	 * the template's format (another format has other classes) and the observer it reports to.
	 */
	static boolean isValueEncoding(String type) {
		return type.startsWith("dev.slipcase.redis.serializer.") || type.startsWith("dev.slipcase.redis.metrics.");
	}

	/** Each traced class and the methods of it that ran ({@code name [thread]}). */
	static Map<String, Set<String>> trace() throws Exception {
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

	/** The classes of {@code dev.slipcase.redis} in the jar or folder this class came from, but for the benchmarks' own. */
	private static List<String> coreClasses() throws IOException, URISyntaxException {
		Path source = Path.of(ValueTemplate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		List<String> names = new ArrayList<>();
		if (Files.isDirectory(source)) {
			try (var files = Files.walk(source)) {
				files.map((file) -> source.relativize(file).toString()).forEach((entry) -> addClass(entry, names));
			}
		}
		else {
			try (JarFile jar = new JarFile(source.toFile())) {
				jar.stream().map(JarEntry::getName).forEach((entry) -> addClass(entry, names));
			}
		}
		return names;
	}

	private static void addClass(String entry, List<String> names) {
		if (!entry.startsWith("dev/slipcase/redis/") || !entry.endsWith(".class") || entry.contains("package-info")
				|| entry.contains("Lambda") || entry.startsWith("dev/slipcase/redis/test/")
				|| entry.startsWith("dev/slipcase/redis/benchmark") || entry.endsWith("Benchmark.class")
				|| entry.contains("Benchmark$") || entry.contains("Report")) {
			return;
		}
		names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
	}

}
