package dev.slipcase.redis.test;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A minimal blocking RESP2 connection used by the fixture to probe and manage the servers it
 * starts (PING, INFO, CLUSTER INFO, SHUTDOWN), so that starting a server does not depend on the
 * client library under test. Not thread-safe; one connection per caller.
 */
final class RespConnection implements Closeable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private RespConnection(Socket socket) throws IOException {
		this.socket = socket;
		this.in = new BufferedInputStream(socket.getInputStream());
		this.out = socket.getOutputStream();
	}

	static RespConnection open(RedisEndpoint endpoint, Duration timeout) throws IOException {
		Socket socket = new Socket();
		try {
			socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), (int) timeout.toMillis());
			socket.setSoTimeout((int) timeout.toMillis());
			RespConnection connection = new RespConnection(socket);
			if (endpoint.password() != null) {
				connection.command("AUTH", endpoint.password());
			}
			return connection;
		}
		catch (IOException | RuntimeException ex) {
			socket.close();
			throw ex;
		}
	}

	/**
	 * Sends one command and reads its reply.
	 * @return a {@code String} for status and bulk replies, a {@code Long} for integers, a
	 * {@code List} for arrays, or {@code null} for a null reply
	 * @throws RedisErrorReplyException when the server answers with an error
	 */
	@Nullable Object command(String... args) throws IOException {
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		writeLine(request, "*" + args.length);
		for (String arg : args) {
			byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
			writeLine(request, "$" + bytes.length);
			request.write(bytes);
			writeLine(request, "");
		}
		this.out.write(request.toByteArray());
		this.out.flush();
		return readReply();
	}

	private static void writeLine(ByteArrayOutputStream out, String line) {
		out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
		out.write('\r');
		out.write('\n');
	}

	private @Nullable Object readReply() throws IOException {
		int type = this.in.read();
		if (type < 0) {
			throw new IOException("Connection closed by server");
		}
		String line = readLine();
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new RedisErrorReplyException(line);
			case ':':
				return Long.parseLong(line);
			case '$': {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] bytes = this.in.readNBytes(length + 2);
				if (bytes.length != length + 2) {
					throw new IOException("Connection closed inside a bulk reply");
				}
				return new String(bytes, 0, length, StandardCharsets.UTF_8);
			}
			case '*': {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<@Nullable Object> items = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					items.add(readReply());
				}
				return items;
			}
			default:
				throw new IOException("Unexpected RESP type byte '" + (char) type + "'");
		}
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = this.in.read()) != '\r') {
			if (b < 0) {
				throw new IOException("Connection closed inside a reply line");
			}
			line.write(b);
		}
		if (this.in.read() != '\n') {
			throw new IOException("Reply line not terminated by CRLF");
		}
		return line.toString(StandardCharsets.UTF_8);
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/** An error reply ({@code -ERR ...}) from the server. */
	static final class RedisErrorReplyException extends IOException {

		RedisErrorReplyException(String message) {
			super(message);
		}

	}

}
