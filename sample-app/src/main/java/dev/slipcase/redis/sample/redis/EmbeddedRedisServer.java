package dev.slipcase.redis.sample.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A real {@code redis-server} (the Redis 6.2 binary that the {@code embedded-redis} jar ships)
 * listening on a free loopback port with persistence off, for running the sample app on a machine
 * with no Redis. Started by its constructor, stopped by {@link #close()}.
 * <p>
 * It never outlives the app: it runs under a small {@code /bin/sh} watchdog that checks every
 * second whether this JVM is still alive, and when it is not (even after {@code kill -9}) stops
 * the server and deletes its folder. A start also deletes folders that earlier runs left behind
 * whose JVM is gone.
 */
public final class EmbeddedRedisServer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(EmbeddedRedisServer.class);

	static final String HOST = "127.0.0.1";

	/** The prefix of the server's temporary folder, in {@code java.io.tmpdir}. */
	static final String FOLDER_PREFIX = "slipcase-sample-redis-";

	/** In the server's folder: the process id of the JVM that started it. */
	static final String OWNER_FILE = "owner.pid";

	/**
	 * The watchdog: starts the server ({@code $0}, on port {@code $1}, in folder {@code $2}), then
	 * once a second checks the JVM ({@code $3}) and the server; when either is gone it stops the
	 * server and deletes the folder.
	 */
	private static final String WATCHDOG = """
			"$0" --bind 127.0.0.1 --port "$1" --save "" --appendonly no --dir "$2" --daemonize no &
			server=$!
			while kill -0 "$3" 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 1; done
			kill "$server" 2>/dev/null
			wait "$server"
			rm -rf "$2"
			""";

	private final int port;

	private final Path folder;

	private final Process watchdog;

	EmbeddedRedisServer() {
		this(Path.of(System.getProperty("java.io.tmpdir")));
	}

	/** Starts a server whose folder is made under {@code temp}; for tests. */
	EmbeddedRedisServer(Path temp) {
		int removed = removeStaleFolders(temp);
		this.port = freePort();
		try {
			this.folder = Files.createTempDirectory(temp, FOLDER_PREFIX);
			long owner = ProcessHandle.current().pid();
			Files.writeString(this.folder.resolve(OWNER_FILE), Long.toString(owner));
			Path binary = extractBinary(this.folder);
			this.watchdog = new ProcessBuilder("/bin/sh", "-c", WATCHDOG, binary.toString(), Integer.toString(this.port),
					this.folder.toString(), Long.toString(owner))
				.redirectErrorStream(true)
				.redirectOutput(this.folder.resolve("redis.log").toFile())
				.start();
			awaitReady();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded Redis on port " + this.port, ex);
		}
		logger.info("No Redis configured (spring.data.redis.*): started an embedded Redis 6.2 on " + HOST + ":"
				+ this.port + " with persistence off (folder " + this.folder + ((removed > 0) ? ", removed " + removed
						+ " left by earlier runs" : "")
				+ "). Set spring.data.redis.host/port or url to use your own.");
	}

	/** The loopback port the server listens on. */
	public int port() {
		return this.port;
	}

	/** The server's temporary folder, deleted when it stops. */
	Path folder() {
		return this.folder;
	}

	/** The process id of the watchdog, whose child the server is. */
	long watchdogPid() {
		return this.watchdog.pid();
	}

	@Override
	public void close() throws IOException {
		try {
			send("SHUTDOWN NOSAVE");
		}
		catch (IOException ex) {
			// already gone: the watchdog cleans up
		}
		try {
			if (!this.watchdog.waitFor(10, TimeUnit.SECONDS)) {
				this.watchdog.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		deleteRecursively(this.folder);
		logger.info("Stopped the embedded Redis on " + HOST + ":" + this.port);
	}

	/**
	 * Deletes the folders of earlier servers under {@code temp} whose owning JVM is no longer
	 * running (their watchdog would have done it, unless the machine stopped first).
	 * @return how many were deleted
	 */
	static int removeStaleFolders(Path temp) {
		int removed = 0;
		try (DirectoryStream<Path> folders = Files.newDirectoryStream(temp, FOLDER_PREFIX + "*")) {
			for (Path folder : folders) {
				if (!ownerIsAlive(folder)) {
					deleteRecursively(folder);
					removed++;
				}
			}
		}
		catch (IOException ex) {
			logger.warn("Could not look for embedded Redis folders left in " + temp + ": " + ex.getMessage());
		}
		return removed;
	}

	private static boolean ownerIsAlive(Path folder) {
		try {
			long owner = Long.parseLong(Files.readString(folder.resolve(OWNER_FILE)).trim());
			return ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false);
		}
		catch (IOException | NumberFormatException ex) {
			// no owner recorded: a folder being created right now is younger than a minute
			try {
				return Files.getLastModifiedTime(folder).toMillis() > System.currentTimeMillis() - 60_000;
			}
			catch (IOException gone) {
				return false;
			}
		}
	}

	private void awaitReady() throws IOException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			try {
				if (send("PING").startsWith("+PONG")) {
					return;
				}
			}
			catch (IOException ex) {
				if (!this.watchdog.isAlive() || System.nanoTime() > deadline) {
					throw new IOException("The embedded Redis did not start; its log: "
							+ readLog(this.folder.resolve("redis.log")), ex);
				}
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("Interrupted while waiting for the embedded Redis", ex);
			}
		}
	}

	/** Sends one inline command and reads the first line of the reply. */
	private String send(String command) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(HOST, this.port), 1000);
			socket.setSoTimeout(2000);
			OutputStream out = socket.getOutputStream();
			out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			StringBuilder line = new StringBuilder();
			int next;
			while ((next = in.read()) != -1 && next != '\n') {
				line.append((char) next);
			}
			return line.toString();
		}
	}

	private static String readLog(Path log) {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return "(none)";
		}
	}

	private static Path extractBinary(Path folder) throws IOException {
		String resource = binaryResource();
		try (InputStream in = EmbeddedRedisServer.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IOException(resource + " not found: is the embedded-redis jar on the classpath?");
			}
			Path binary = folder.resolve("redis-server");
			Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
			if (!binary.toFile().setExecutable(true)) {
				throw new IOException("Could not make " + binary + " executable");
			}
			return binary;
		}
	}

	private static String binaryResource() {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		boolean arm = arch.equals("aarch64") || arch.equals("arm64");
		if (os.contains("linux")) {
			return arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
		}
		if (os.contains("mac")) {
			return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
		}
		throw new IllegalStateException("The embedded Redis runs on Linux and macOS only, not on " + os + "/" + arch
				+ ": set spring.data.redis.host/port or url to use a Redis of your own.");
	}

	private static void deleteRecursively(Path folder) {
		if (!Files.exists(folder)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(folder)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException | UncheckedIOException ex) {
			logger.warn("Could not delete " + folder + ": " + ex.getMessage());
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free loopback port for the embedded Redis", ex);
		}
	}

}
