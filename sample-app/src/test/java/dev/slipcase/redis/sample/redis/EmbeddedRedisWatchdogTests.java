package dev.slipcase.redis.sample.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded Redis never outlives the app: a JVM that started one is killed with
 * {@code SIGKILL} and the server exits and its folder goes within seconds; a start removes the
 * folders of earlier runs whose JVM is gone, and leaves those of running ones.
 */
class EmbeddedRedisWatchdogTests {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@TempDir
	Path temp;

	@Test
	void theServerStopsAndItsFolderGoesWhenItsJvmIsKilled() throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				EmbeddedRedisProbe.class.getName(), this.temp.toString())
			.redirectErrorStream(true)
			.start();
		try {
			String[] ready = readyLine(jvm);
			int port = Integer.parseInt(ready[1]);
			Path folder = Path.of(ready[2]);
			ProcessHandle watchdog = ProcessHandle.of(Long.parseLong(ready[3])).orElseThrow();
			assertThat(accepts(port)).isTrue();
			assertThat(folder).isDirectory();

			jvm.destroyForcibly().waitFor(WITHIN.toSeconds(), TimeUnit.SECONDS);
			assertThat(jvm.isAlive()).isFalse();

			long deadline = System.nanoTime() + WITHIN.toNanos();
			while ((accepts(port) || Files.exists(folder) || watchdog.isAlive()) && System.nanoTime() < deadline) {
				Thread.sleep(100);
			}
			assertThat(accepts(port)).as("the server still listens on " + port).isFalse();
			assertThat(folder).doesNotExist();
			assertThat(watchdog.isAlive()).isFalse();
		}
		finally {
			jvm.destroyForcibly();
		}
	}

	@Test
	void aStartRemovesFoldersOfEarlierRunsWhoseJvmIsGone() throws Exception {
		Process finished = new ProcessBuilder("true").start();
		finished.waitFor();
		Path left = Files.createDirectory(this.temp.resolve(EmbeddedRedisServer.FOLDER_PREFIX + "left"));
		Files.writeString(left.resolve(EmbeddedRedisServer.OWNER_FILE), Long.toString(finished.pid()));
		Files.writeString(left.resolve("redis-server"), "an old binary");
		Path running = Files.createDirectory(this.temp.resolve(EmbeddedRedisServer.FOLDER_PREFIX + "running"));
		Files.writeString(running.resolve(EmbeddedRedisServer.OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
		Path unrelated = Files.createDirectory(this.temp.resolve("someone-else"));

		try (EmbeddedRedisServer server = new EmbeddedRedisServer(this.temp)) {
			assertThat(left).doesNotExist();
			assertThat(running).isDirectory();
			assertThat(unrelated).isDirectory();
			assertThat(accepts(server.port())).isTrue();
		}
	}

	@Test
	void closeStopsTheServerAndDeletesItsFolder() throws Exception {
		EmbeddedRedisServer server = new EmbeddedRedisServer(this.temp);
		Path folder = server.folder();
		ProcessHandle watchdog = ProcessHandle.of(server.watchdogPid()).orElseThrow();
		server.close();
		assertThat(accepts(server.port())).isFalse();
		assertThat(folder).doesNotExist();
		assertThat(watchdog.isAlive()).isFalse();
	}

	private static String[] readyLine(Process jvm) throws IOException {
		BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
		StringBuilder seen = new StringBuilder();
		String line;
		while ((line = out.readLine()) != null) {
			if (line.startsWith("READY ")) {
				return line.split(" ");
			}
			seen.append(line).append('\n');
		}
		throw new AssertionError("The probe JVM ended without starting the server:\n" + seen);
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
