package dev.slipcase.redis.test.fault;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * Copies one direction of a proxied connection, from one socket to the other, on a thread of its
 * own; while held it keeps what it reads. Its state is guarded by its own monitor: the pump's
 * thread and the test's thread both touch it.
 */
final class Pump {

	private final Socket from;

	private final Socket to;

	private final Runnable onEnd;

	private final Runnable pause;

	private final ByteArrayOutputStream held = new ByteArrayOutputStream();

	private boolean holding;

	Pump(Socket from, Socket to, Runnable onEnd, Runnable pause) {
		this.from = from;
		this.to = to;
		this.onEnd = onEnd;
		this.pause = pause;
	}

	void start(String name) {
		Thread thread = new Thread(this::run, name);
		thread.setDaemon(true);
		thread.start();
	}

	synchronized void hold() {
		this.holding = true;
	}

	/** Forwards what was held and stops holding. */
	synchronized void release() {
		this.holding = false;
		if (this.held.size() > 0) {
			try {
				this.held.writeTo(this.to.getOutputStream());
				this.to.getOutputStream().flush();
			}
			catch (IOException ex) {
				// the connection is gone: what was held is lost, as on a real cut
			}
			this.held.reset();
		}
	}

	/** Drops what was held (the connection is being cut). */
	synchronized void drop() {
		this.held.reset();
	}

	private void run() {
		byte[] buffer = new byte[64 * 1024];
		try {
			InputStream in = this.from.getInputStream();
			OutputStream out = this.to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) >= 0) {
				this.pause.run();
				synchronized (this) {
					if (this.holding) {
						this.held.write(buffer, 0, read);
					}
					else {
						out.write(buffer, 0, read);
						out.flush();
					}
				}
			}
		}
		catch (IOException ex) {
			// one side closed or was cut
		}
		finally {
			this.onEnd.run();
		}
	}

}
