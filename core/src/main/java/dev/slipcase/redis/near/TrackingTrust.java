package dev.slipcase.redis.near;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Whether one tracking connection's reports can be trusted: tracking is enabled (Redis
 * acknowledged it and the connection has not dropped since), no heartbeat has waited longer than
 * the heartbeat interval for its answer, no write's outcome is unknown, and it is not closed. An
 * answered heartbeat comes after every report Redis sent before it on the same connection, so
 * while heartbeats come back in time no change goes unreported for longer than about two intervals.
 * Sends the heartbeats and tells its {@link KeyInvalidations.Listener} each time trust is lost or
 * regained. Holds no buffer; thread-safe (one monitor, the listener called while
 * holding it).
 */
final class TrackingTrust {

	/** How often per heartbeat interval it checks whether a heartbeat is due or late. */
	private static final int TICKS_PER_HEARTBEAT = 4;

	/** After how many heartbeat intervals without an answer a heartbeat is given up and another sent. */
	static final int ABANDON_AFTER_HEARTBEATS = 3;

	private final KeyInvalidations.Listener listener;

	private final long heartbeatNanos;

	/** Sends one heartbeat: the future completes when its answer shows what was sent before it arrived. */
	private final Supplier<CompletableFuture<?>> heartbeatSender;

	/** Redis acknowledged tracking on the current connection, and it has not dropped since. */
	private boolean enabled;

	/** A heartbeat is outstanding for longer than the heartbeat interval, or a write's outcome is unknown. */
	private boolean lagging;

	private boolean closed;

	/** What the listener was last told. */
	private boolean trusted;

	/** When the outstanding heartbeat was sent ({@code System.nanoTime()}), or {@code 0}: none is. */
	private long heartbeatSentAt;

	/** When a write was last given up with its outcome unknown ({@code System.nanoTime()}), or {@code 0}. */
	private long writeGivenUpAt;

	/** When the last heartbeat was answered or failed ({@code System.nanoTime()}). */
	private long lastAnswerAt = System.nanoTime();

	private @Nullable ScheduledFuture<?> ticks;

	/** The outstanding heartbeat's answer, or {@code null}. */
	private @Nullable CompletableFuture<?> heartbeat;

	TrackingTrust(KeyInvalidations.Listener listener, long heartbeatNanos,
			Supplier<CompletableFuture<?>> heartbeatSender) {
		this.listener = listener;
		this.heartbeatNanos = heartbeatNanos;
		this.heartbeatSender = heartbeatSender;
	}

	/** How long a heartbeat may wait before it is given up. */
	long abandonAfterNanos() {
		return ABANDON_AFTER_HEARTBEATS * this.heartbeatNanos;
	}

	/** Tracking was enabled for the first time: trusted from now on, and heartbeats start on {@code executor}. */
	synchronized void started(ScheduledExecutorService executor) {
		this.enabled = true;
		update();
		if (!this.closed) {
			long tick = this.heartbeatNanos / TICKS_PER_HEARTBEAT;
			this.ticks = executor.scheduleAtFixedRate(this::tick, tick, tick, TimeUnit.NANOSECONDS);
		}
	}

	/** Tracking is enabled (Redis acknowledged it again after a reconnect), or is not (the connection dropped). */
	synchronized void enabled(boolean enabled) {
		this.enabled = enabled;
		update();
	}

	/** Whether tracking must be enabled again: started once, not closed, and not enabled now (a reconnect). */
	synchronized boolean needsEnabling() {
		return !this.closed && !this.enabled && this.ticks != null;
	}

	synchronized boolean isClosed() {
		return this.closed;
	}

	/** Whether changes are reported right now. */
	synchronized boolean isTrusted() {
		return this.trusted;
	}

	/**
	 * A write whose outcome is unknown: not trusted until a heartbeat sent from now on (on the same
	 * connection, so answered only after that write ran) is answered.
	 */
	synchronized void writeOutcomeUnknown() {
		long now = System.nanoTime();
		this.writeGivenUpAt = (now != 0) ? now : 1;
		this.lagging = true;
		update();
		this.lastAnswerAt = now - this.heartbeatNanos; // the next tick sends a heartbeat, unless one is out
	}

	/**
	 * Stops trusting for good and stops the heartbeats; the listener hears nothing more.
	 * @return whether it was open until now
	 */
	boolean close() {
		ScheduledFuture<?> scheduled;
		synchronized (this) {
			if (this.closed) {
				return false;
			}
			this.closed = true;
			this.trusted = false;
			scheduled = this.ticks;
		}
		if (scheduled != null) {
			scheduled.cancel(false);
		}
		return true;
	}

	/**
	 * Runs a few times per heartbeat: sends one when it is due, notices one that is late, and gives
	 * up on one unanswered for {@value #ABANDON_AFTER_HEARTBEATS} intervals so that another is sent
	 * (not trusted until one is answered). Never throws: an exception would end the schedule.
	 */
	private void tick() {
		try {
			beat();
		}
		catch (RuntimeException ex) {
			answeredNow(ex);
		}
	}

	private void beat() {
		long now = System.nanoTime();
		CompletableFuture<?> abandoned = null;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			if (this.heartbeatSentAt != 0) {
				if (now - this.heartbeatSentAt > this.heartbeatNanos) {
					this.lagging = true;
					update();
				}
				if (now - this.heartbeatSentAt <= abandonAfterNanos()) {
					return;
				}
				abandoned = this.heartbeat;
				this.heartbeatSentAt = 0;
			}
			else if (now - this.lastAnswerAt < this.heartbeatNanos) {
				return;
			}
			this.heartbeatSentAt = now;
		}
		if (abandoned != null) {
			abandoned.cancel(false);
		}
		long sentAt = now;
		CompletableFuture<?> answer = this.heartbeatSender.get();
		synchronized (this) {
			if (this.heartbeatSentAt == sentAt) {
				this.heartbeat = answer;
			}
		}
		answer.whenComplete((pong, failure) -> answered(sentAt, failure));
	}

	/** A heartbeat that could not even be sent: as one that failed. */
	private synchronized void answeredNow(RuntimeException failure) {
		if (this.heartbeatSentAt != 0) {
			answered(this.heartbeatSentAt, failure);
		}
	}

	private synchronized void answered(long sentAt, @Nullable Throwable failure) {
		if (this.heartbeatSentAt != sentAt) {
			return;
		}
		this.heartbeatSentAt = 0;
		this.lastAnswerAt = System.nanoTime();
		// an answer arrives after every invalidation sent before it; a failed heartbeat (timed out,
		// the connection dropped) says nothing of them: not trusted until one is answered; nor does
		// one sent before a write was given up say that the write has run
		boolean sentAfterWriteGivenUp = this.writeGivenUpAt == 0 || sentAt - this.writeGivenUpAt > 0;
		this.lagging = failure != null || !sentAfterWriteGivenUp;
		if (failure == null && !sentAfterWriteGivenUp) {
			this.lastAnswerAt -= this.heartbeatNanos; // the one that counts goes at the next tick
		}
		update();
	}

	/** Tells the listener when whether tracking is trusted changed. Called holding the monitor. */
	private void update() {
		boolean now = this.enabled && !this.lagging && !this.closed;
		if (now == this.trusted) {
			return;
		}
		this.trusted = now;
		if (now) {
			this.listener.trackingTrusted();
		}
		else {
			this.listener.trackingLost();
		}
	}

}
