package dev.slipcase.redis.test.fault;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import dev.slipcase.redis.test.RedisEndpoint;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link FaultProxy} in front of a real server, with a client of plain sockets.
 */
@ExtendWith(RedisExtension.class)
class FaultProxyTests {

	private RedisServer redis;

	private FaultProxy proxy;

	private String key;

	@BeforeEach
	void start(RedisServer redis) {
		this.redis = redis;
		this.proxy = FaultProxy.start(redis.endpoint());
		this.key = "fault-proxy:" + UUID.randomUUID();
	}

	@AfterEach
	void stop() {
		this.proxy.close();
	}

	@Test
	void forwardsCommandsAndRepliesBothWays() throws IOException {
		try (Socket client = connect()) {
			send(client, "SET " + this.key + " through");
			assertThat(readLine(client)).isEqualTo("+OK");
			send(client, "GET " + this.key);
			assertThat(readLine(client)).isEqualTo("$7");
			assertThat(readLine(client)).isEqualTo("through");
		}
		assertThat(this.proxy.accepted()).isEqualTo(1);
	}

	@Test
	void aCommandWhoseReplyIsHeldIsAppliedAndItsReplyIsLostWhenTheConnectionIsCut() throws IOException {
		try (Socket client = connect()) {
			send(client, "PING");
			assertThat(readLine(client)).isEqualTo("+PONG");
			this.proxy.holdReplies();
			send(client, "SET " + this.key + " applied");
			awaitValue("applied");
			client.setSoTimeout(200);
			assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> readLine(client));
			this.proxy.cut();
			client.setSoTimeout(5_000);
			assertThat(readOrClosed(client)).isEqualTo(-1);
		}
		assertThat(this.proxy.openConnections()).isZero();
	}

	@Test
	void aResetConnectionIsSeenAsAReset() throws IOException {
		try (Socket client = connect()) {
			this.proxy.holdReplies();
			send(client, "SET " + this.key + " reset");
			awaitValue("reset");
			this.proxy.reset();
			assertThatExceptionOfType(SocketException.class).isThrownBy(() -> readLine(client))
				.withMessageContaining("reset");
		}
	}

	@Test
	void releaseForwardsWhatWasHeld() throws IOException {
		try (Socket client = connect()) {
			this.proxy.holdReplies();
			send(client, "SET " + this.key + " late");
			awaitValue("late");
			this.proxy.release();
			assertThat(readLine(client)).isEqualTo("+OK");
		}
	}

	@Test
	void aHeldRequestReachesTheServerOnlyWhenReleased() throws IOException {
		try (Socket client = connect()) {
			this.proxy.holdRequests();
			send(client, "SET " + this.key + " held");
			client.setSoTimeout(300);
			assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> readLine(client));
			assertThat(this.redis.command("GET", this.key)).isNull();
			this.proxy.release();
			client.setSoTimeout(5_000);
			assertThat(readLine(client)).isEqualTo("+OK");
			assertThat(this.redis.command("GET", this.key)).isEqualTo("held");
		}
	}

	@Test
	void refusedConnectionsAreResetUntilHealed() throws IOException {
		this.proxy.refuseConnections();
		try (Socket client = connect()) {
			assertThat(pingOrClosed(client)).isEqualTo(-1);
		}
		assertThat(this.proxy.refused()).isEqualTo(1);
		this.proxy.heal();
		try (Socket client = connect()) {
			send(client, "PING");
			assertThat(readLine(client)).isEqualTo("+PONG");
		}
	}

	@Test
	void latencyDelaysEveryChunkAndKeepsTheirOrder() throws IOException {
		try (Socket client = connect()) {
			this.proxy.latency(Duration.ofMillis(100));
			long start = System.nanoTime();
			send(client, "SET " + this.key + " slow");
			assertThat(readLine(client)).isEqualTo("+OK");
			// a request and its reply each wait: never sooner than twice the latency
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
			this.proxy.heal();
			send(client, "GET " + this.key);
			assertThat(readLine(client)).isEqualTo("$4");
			assertThat(readLine(client)).isEqualTo("slow");
		}
	}

	private Socket connect() throws IOException {
		RedisEndpoint endpoint = this.proxy.endpoint();
		Socket socket = new Socket(endpoint.host(), endpoint.port());
		socket.setSoTimeout(5_000);
		return socket;
	}

	private void awaitValue(String value) {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (!value.equals(this.redis.command("GET", this.key))) {
			assertThat(System.nanoTime()).as("the server got the command").isLessThan(deadline);
			Thread.onSpinWait();
		}
	}

	private static void send(Socket socket, String inlineCommand) throws IOException {
		socket.getOutputStream().write((inlineCommand + "\r\n").getBytes(StandardCharsets.UTF_8));
		socket.getOutputStream().flush();
	}

	private static String readLine(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder line = new StringBuilder();
		int b;
		while ((b = in.read()) != '\n') {
			if (b < 0) {
				throw new IOException("closed after '" + line + "'");
			}
			if (b != '\r') {
				line.append((char) b);
			}
		}
		return line.toString();
	}

	/** Sends {@code PING} and reads the first byte of the reply, or -1 when the connection was closed or reset. */
	private static int pingOrClosed(Socket socket) {
		try {
			send(socket, "PING");
			return socket.getInputStream().read();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/** The next byte, or -1 when the connection was closed or reset. */
	private static int readOrClosed(Socket socket) {
		try {
			return socket.getInputStream().read();
		}
		catch (IOException ex) {
			return -1;
		}
	}

}
