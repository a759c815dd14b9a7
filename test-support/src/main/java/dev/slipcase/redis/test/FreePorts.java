package dev.slipcase.redis.test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks loopback TCP ports that are free right now. A port can still be taken between the check
 * and the server's bind, so callers retry when a server reports its address in use.
 */
final class FreePorts {

	/** Redis Cluster listens on {@code port + 10000} for its bus. */
	static final int CLUSTER_BUS_OFFSET = 10000;

	private FreePorts() {
	}

	/** A free port, chosen by the operating system. */
	static int any() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException("No free loopback port", ex);
		}
	}

	/** A free port whose cluster-bus port ({@code port + 10000}) is free as well. */
	static int withClusterBus() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int attempt = 0; attempt < 200; attempt++) {
			int port = random.nextInt(20000, 50000);
			if (isFree(port) && isFree(port + CLUSTER_BUS_OFFSET)) {
				return port;
			}
		}
		throw new IllegalStateException("No free loopback port pair (port, port + 10000) found");
	}

	static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
