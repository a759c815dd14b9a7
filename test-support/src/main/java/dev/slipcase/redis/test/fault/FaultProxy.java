package dev.slipcase.redis.test.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.slipcase.redis.test.RedisEndpoint;

/**
 * A TCP proxy on a loopback port in front of a real server, for fault tests: clients connect to
 * {@link #endpoint()} and every byte is forwarded to the target and back, until the test injects a
 * fault on the wire:
 * <ul>
 * <li>{@link #latency(Duration)}: every chunk waits that long before it is forwarded, both ways;</li>
 * <li>{@link #holdReplies()} / {@link #holdRequests()}: one direction keeps what it reads instead of
 * forwarding it (requests still reach the server while replies are held: "applied, reply lost in
 * flight" once the connection is then {@link #cut()});</li>
 * <li>{@link #cut()}: every open connection is closed at once, both sides, dropping what is held,
 * as a peer closes (a FIN: the client sees the connection end and replays what got no reply);
 * {@link #reset()}: the same with an RST (the client sees "Connection reset" fail a command);</li>
 * <li>{@link #refuseConnections()}: a new connection is reset as soon as it is accepted;</li>
 * <li>{@link #heal()}: no latency, held bytes forwarded, connections accepted again;
 * {@link #cutAndHeal()}: the same, but what was held is dropped with the connections.</li>
 * </ul>
 * Plain blocking sockets, two threads a connection; nothing of the client or the server is mocked.
 * Thread-safe: the test drives it from any thread. {@link #close()} stops it and closes every
 * connection.
 */
public final class FaultProxy implements AutoCloseable {

	private final RedisEndpoint target;

	private final ServerSocket listener;

	private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();

	private final AtomicLong accepted = new AtomicLong();

	private final AtomicLong refused = new AtomicLong();

	private volatile long latencyNanos;

	private volatile boolean refusing;

	private volatile boolean holdingRequests;

	private volatile boolean holdingReplies;

	private volatile boolean closed;

	private FaultProxy(RedisEndpoint target, ServerSocket listener) {
		this.target = target;
		this.listener = listener;
		Thread acceptor = new Thread(this::accept, "fault-proxy-" + listener.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * A proxy in front of {@code target}, listening on a free loopback port; the caller closes it.
	 * @throws UncheckedIOException when no port can be bound
	 */
	public static FaultProxy start(RedisEndpoint target) {
		try {
			ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			return new FaultProxy(target, listener);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not bind the fault proxy to a loopback port", ex);
		}
	}

	/** Where clients connect: the proxy's loopback port, with the target's password. */
	public RedisEndpoint endpoint() {
		return new RedisEndpoint(this.listener.getInetAddress().getHostAddress(), this.listener.getLocalPort(),
				this.target.password());
	}

	/** Delays every chunk forwarded, both ways, by {@code latency} (zero for none). */
	public void latency(Duration latency) {
		this.latencyNanos = latency.toNanos();
	}

	/** Keeps what the server sends instead of forwarding it, on open connections and new ones. */
	public void holdReplies() {
		this.holdingReplies = true;
		this.connections.forEach((connection) -> connection.replies.hold());
	}

	/** Keeps what clients send instead of forwarding it, on open connections and new ones. */
	public void holdRequests() {
		this.holdingRequests = true;
		this.connections.forEach((connection) -> connection.requests.hold());
	}

	/** Forwards what was held and stops holding. */
	public void release() {
		this.holdingRequests = false;
		this.holdingReplies = false;
		this.connections.forEach((connection) -> {
			connection.requests.release();
			connection.replies.release();
		});
	}

	/** Closes every open connection, both sides (FIN), dropping what was held; new ones are accepted. */
	public void cut() {
		closeAll(false);
	}

	/** Resets every open connection, both sides (RST), dropping what was held; new ones are accepted. */
	public void reset() {
		closeAll(true);
	}

	private void closeAll(boolean reset) {
		for (ProxiedConnection connection : List.copyOf(this.connections)) {
			connection.close(reset);
		}
	}

	/**
	 * Stops every fault and closes every open connection, dropping what was held, in that order:
	 * the client's reconnect meets a healed proxy, and what was held (replies lost in flight) is
	 * never delivered.
	 */
	public void cutAndHeal() {
		stopFaults();
		cut();
	}

	/**
	 * As {@link #cutAndHeal()}, but resets the connections (RST) instead of closing them: the client
	 * reads a failure ({@code Connection reset}) where it would read an end of stream, as when a
	 * server dies with a request it had not read yet.
	 */
	public void resetAndHeal() {
		stopFaults();
		reset();
	}

	private void stopFaults() {
		this.latencyNanos = 0;
		this.refusing = false;
		this.holdingRequests = false;
		this.holdingReplies = false;
	}

	/** Resets every new connection as soon as it is accepted, until {@link #heal()}. */
	public void refuseConnections() {
		this.refusing = true;
	}

	/** No latency, nothing held (what was held is forwarded), connections accepted again. */
	public void heal() {
		this.latencyNanos = 0;
		this.refusing = false;
		release();
	}

	/** How many connections the proxy has accepted and forwarded. */
	public long accepted() {
		return this.accepted.get();
	}

	/** How many connections the proxy reset while refusing. */
	public long refused() {
		return this.refused.get();
	}

	/** How many connections are open now. */
	public int openConnections() {
		return this.connections.size();
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// closing: nothing to do
		}
		reset();
	}

	private void accept() {
		while (!this.closed) {
			Socket client;
			try {
				client = this.listener.accept();
			}
			catch (IOException ex) {
				return; // the listener was closed
			}
			if (this.refusing) {
				this.refused.incrementAndGet();
				reset(client);
				continue;
			}
			try {
				Socket server = new Socket();
				server.connect(new InetSocketAddress(this.target.host(), this.target.port()), 5_000);
				ProxiedConnection connection = new ProxiedConnection(client, server);
				this.connections.add(connection);
				this.accepted.incrementAndGet();
				connection.start();
			}
			catch (IOException ex) {
				reset(client);
			}
		}
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// it is gone either way
		}
	}

	private static void reset(Socket socket) {
		try (socket) {
			socket.setSoLinger(true, 0);
		}
		catch (IOException ex) {
			// it is gone either way
		}
	}

	private void pause() {
		long nanos = this.latencyNanos;
		if (nanos > 0) {
			try {
				Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** One client's connection and the proxy's connection to the server for it. */
	private final class ProxiedConnection {

		private final Socket client;

		private final Socket server;

		private final Pump requests;

		private final Pump replies;

		ProxiedConnection(Socket client, Socket server) throws IOException {
			this.client = client;
			this.server = server;
			client.setTcpNoDelay(true);
			server.setTcpNoDelay(true);
			this.requests = new Pump(client, server, () -> close(false), FaultProxy.this::pause);
			this.replies = new Pump(server, client, () -> close(false), FaultProxy.this::pause);
			if (FaultProxy.this.holdingRequests) {
				this.requests.hold();
			}
			if (FaultProxy.this.holdingReplies) {
				this.replies.hold();
			}
		}

		void start() {
			int port = this.client.getPort();
			this.requests.start("fault-proxy-requests-" + port);
			this.replies.start("fault-proxy-replies-" + port);
		}

		void close(boolean reset) {
			FaultProxy.this.connections.remove(this);
			this.requests.drop();
			this.replies.drop();
			if (reset) {
				reset(this.client);
				reset(this.server);
			}
			else {
				closeQuietly(this.client);
				closeQuietly(this.server);
			}
		}

	}

}
