package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.SelectorProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.nio.NioIoEvent;
import io.netty.channel.nio.NioIoHandle;
import io.netty.channel.nio.NioIoOps;
import io.netty.util.concurrent.ThreadAwareExecutor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A Netty {@link IoHandler} for NIO channels whose selector is woken only while its event loop is
 * about to block in it: the loop marks itself as selecting just before it checks its task queue a
 * last time and blocks, and a thread that hands it a task wakes the selector only when it finds the
 * mark set. Before it blocks, the loop may poll without blocking for an adaptive window (the
 * <em>busy poll</em>: growing from 10 µs while work keeps coming soon after, dropping to nothing
 * once the loop stays idle longer than the longest poll), so that a reply or a command arriving
 * within it is handled without a sleep and a wake-up. Ready keys are handled inside the select
 * call, so a turn allocates no selected-key set. Does not rebuild a selector or move channels
 * between loops, as Netty's {@code NioIoHandler} does.
 * <p>
 * Owns its {@link Selector}: opened when the handler is made, closed by {@link #destroy()} after
 * {@link #prepareToDestroy()} has closed every channel still registered. As with Netty's own
 * handler, a loop shut down without a quiet period may end before a turn calls
 * {@link #prepareToDestroy()}, and leave its channels open. Holds no buffers. Every
 * method but {@link #wakeup()} runs on the event loop's thread.
 */
public final class WakeOnDemandNioIoHandler implements IoHandler {

	private static final Log logger = LogFactory.getLog(WakeOnDemandNioIoHandler.class);

	/** The events handed to a channel, by ready-operation bits ({@code OP_ACCEPT} is the highest, 16). */
	private static final NioIoEvent[] EVENTS = readyEvents();

	/** The default {@linkplain #newFactory(Duration) longest busy poll}: 100 µs. */
	public static final Duration DEFAULT_BUSY_POLL = Duration.ofNanos(100_000);

	/**
	 * The longest busy poll: 1 ms. A loop whose work comes within it may spin for all of it each
	 * time it runs out of work; beyond a millisecond, sleeping and being woken again costs little
	 * next to the wait, and spinning would cost a core for most of it.
	 */
	public static final Duration MAX_BUSY_POLL = Duration.ofMillis(1);

	/** The first window of a loop whose work came soon after it blocked: 10 µs. */
	static final long POLL_GROWTH_START_NANOS = 10_000;

	private final ThreadAwareExecutor executor;

	/** The longest the loop polls before it blocks, ns: the most its window grows to. */
	private final long busyPollNanos;

	/** How long the loop polls the next time it runs out of work, ns; read and written on the loop only. */
	private long pollNanos;

	/**
	 * When work last woke the loop from its select ({@link System#nanoTime()}), 0 while none has
	 * since it blocked; read and written on the loop only.
	 */
	private long wokenAt;

	private final Selector selector;

	/** Set by the loop just before it may block in {@code select}; whoever clears it wakes the selector. */
	private final AtomicBoolean selecting = new AtomicBoolean();

	private final AtomicLong selectorWakeups = new AtomicLong();

	private final Consumer<SelectionKey> readyKeyHandler = this::handleReadyKey;

	private WakeOnDemandNioIoHandler(ThreadAwareExecutor executor, SelectorProvider provider, long busyPollNanos,
			long firstWindowNanos) throws IOException {
		this.executor = executor;
		this.busyPollNanos = busyPollNanos;
		this.pollNanos = firstWindowNanos;
		this.selector = provider.openSelector();
	}

	/**
	 * A factory of handlers on the platform's default {@link SelectorProvider}, for a
	 * {@code MultiThreadIoEventLoopGroup}, with the default longest busy poll.
	 */
	public static IoHandlerFactory newFactory() {
		return newFactory(DEFAULT_BUSY_POLL);
	}

	/**
	 * A factory of handlers on the platform's default {@link SelectorProvider}, for a
	 * {@code MultiThreadIoEventLoopGroup}.
	 * @param busyPoll the longest a loop that ran out of work polls before it blocks (its window
	 * adapts up to that), at most {@link #MAX_BUSY_POLL}; {@link Duration#ZERO} to block at once
	 * @throws IllegalArgumentException for a negative busy poll or one longer than {@link #MAX_BUSY_POLL}
	 */
	public static IoHandlerFactory newFactory(Duration busyPoll) {
		return newFactoryPolling(checkedNanos(busyPoll));
	}

	/** A factory of handlers that poll for up to {@code busyPollNanos}, without {@link #MAX_BUSY_POLL}: for tests. */
	static IoHandlerFactory newFactoryPolling(long busyPollNanos) {
		return newFactoryPolling(busyPollNanos, 0);
	}

	/**
	 * A factory of handlers that poll for up to {@code busyPollNanos}, without {@link #MAX_BUSY_POLL},
	 * whose first window is {@code firstWindowNanos} rather than nothing: for tests.
	 */
	static IoHandlerFactory newFactoryPolling(long busyPollNanos, long firstWindowNanos) {
		return (executor) -> open(executor, busyPollNanos, firstWindowNanos);
	}

	/**
	 * Checks that {@code busyPoll} can be a loop's busy poll: neither negative nor longer than
	 * {@link #MAX_BUSY_POLL}.
	 * @throws IllegalArgumentException when it is, saying which
	 */
	public static void checkBusyPoll(Duration busyPoll) {
		if (busyPoll.isNegative()) {
			throw new IllegalArgumentException("The busy poll must not be negative: " + busyPoll);
		}
		if (busyPoll.compareTo(MAX_BUSY_POLL) > 0) {
			throw new IllegalArgumentException("The busy poll must be at most 1ms: " + busyPoll + " is longer than 1ms");
		}
	}

	/** {@code busyPoll} in nanoseconds, refused when negative or longer than {@link #MAX_BUSY_POLL}. */
	static long checkedNanos(Duration busyPoll) {
		checkBusyPoll(busyPoll);
		return busyPoll.toNanos();
	}

	/** The longest this loop polls before it blocks, ns: for tests. */
	long busyPollNanos() {
		return this.busyPollNanos;
	}

	/** How long this loop polls the next time it runs out of work, ns: for tests, on the loop's thread. */
	long pollNanos() {
		return this.pollNanos;
	}

	private static IoHandler open(ThreadAwareExecutor executor, long busyPollNanos, long firstWindowNanos) {
		try {
			return new WakeOnDemandNioIoHandler(executor, SelectorProvider.provider(), busyPollNanos, firstWindowNanos);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not open a selector for an event loop: " + ex, ex);
		}
	}

	@Override
	public IoRegistration register(IoHandle handle) throws IOException {
		if (!(handle instanceof NioIoHandle nioHandle)) {
			throw new IllegalArgumentException("Not an NIO channel's handle: " + handle.getClass().getName());
		}
		Registration registration = new Registration(nioHandle);
		registration.key = nioHandle.selectableChannel().register(this.selector, 0, registration);
		handle.registered();
		return registration;
	}

	@Override
	public int run(IoHandlerContext context) {
		try {
			if (!context.canBlock()) {
				return this.selector.selectNow(this.readyKeyHandler);
			}
			long start = System.nanoTime();
			if (this.pollNanos > 0) {
				int ready = busyPoll(context, start);
				if (ready != 0 || !context.canBlock()) {
					return ready;
				}
			}
			int ready = selectOrBlock(context);
			if (this.busyPollNanos > 0) {
				adaptPoll(start);
			}
			return ready;
		}
		catch (ClosedSelectorException ex) {
			return 0;
		}
		catch (IOException | RuntimeException ex) {
			// as Netty's loop does: log and go on, the keys still ready are selected again next turn
			logger.warn("Selecting or handling ready channels failed", ex);
			return 0;
		}
	}

	/**
	 * Polls without blocking until a channel is ready, a task is handed over, the poll's window is
	 * over or a scheduled task is due. No one wakes the selector meanwhile: the loop is not marked
	 * as selecting, and finds a task handed over by checking its queue between polls.
	 * @return the number of channels handled, 0 when none was ready
	 */
	private int busyPoll(IoHandlerContext context, long start) throws IOException {
		long window = Math.min(this.pollNanos, context.delayNanos(start));
		while (true) {
			int ready = this.selector.selectNow(this.readyKeyHandler);
			if (ready != 0 || !context.canBlock() || System.nanoTime() - start >= window) {
				return ready;
			}
			Thread.onSpinWait();
		}
	}

	/**
	 * Sets the next poll's window after one that found no work, the way Linux's KVM sets a virtual
	 * CPU's halt polling: when work (a ready channel or a task handed over) came within the longest
	 * poll of the poll's start, a longer window would have caught it, and the window doubles (from
	 * {@link #POLL_GROWTH_START_NANOS}) up to the longest poll; when the loop stayed without work for
	 * longer than that (work came later, or its select timed out for a scheduled task), polling
	 * could not have caught it, and stops until work comes soon again. The time to the work's
	 * coming is taken when it woke the loop, before any reply is handled, so that handling a burst
	 * of replies does not count as waiting. A select that returned without work within the longest
	 * poll changes nothing.
	 * @param start when the loop ran out of work: when its poll began
	 */
	private void adaptPoll(long start) {
		long woken = this.wokenAt;
		long waited = ((woken != 0) ? woken : System.nanoTime()) - start;
		if (waited > this.busyPollNanos) {
			this.pollNanos = 0;
		}
		else if (woken != 0 && this.pollNanos < this.busyPollNanos) {
			this.pollNanos = (this.pollNanos >= this.busyPollNanos / 2) ? this.busyPollNanos
					: Math.min(this.busyPollNanos, Math.max(POLL_GROWTH_START_NANOS, this.pollNanos * 2));
		}
	}

	/**
	 * Blocks until a channel is ready, a task is handed over or a scheduled task is due. The mark is
	 * set before the task queue is checked the last time, so a task added after that check finds
	 * it and wakes the selector; one added before it is seen by the check. Records in
	 * {@link #wokenAt} when work woke it: the first ready channel, or a thread that handed over a
	 * task (it cleared the mark); 0 when the select returned for neither.
	 */
	private int selectOrBlock(IoHandlerContext context) throws IOException {
		this.wokenAt = 0;
		this.selecting.set(true);
		try {
			long timeoutMillis = context.canBlock() ? (context.delayNanos(System.nanoTime()) + 999_999L) / 1_000_000L : 0;
			if (timeoutMillis <= 0) {
				return this.selector.selectNow(this.readyKeyHandler);
			}
			int ready = this.selector.select(this.readyKeyHandler, timeoutMillis);
			if (this.wokenAt == 0 && !this.selecting.get()) {
				// no channel was ready: a thread handing over a task cleared the mark and woke it
				this.wokenAt = System.nanoTime();
			}
			if (ready == 0 && Thread.interrupted()) {
				// an interrupted thread's select returns at once, every time: clear it, as Netty does
				logger.debug("The event loop's thread was interrupted; cleared");
			}
			return ready;
		}
		finally {
			this.selecting.lazySet(false);
		}
	}

	private void handleReadyKey(SelectionKey key) {
		if (this.wokenAt == 0) {
			// the first channel ready since the loop blocked: when work came, for the poll's window
			this.wokenAt = System.nanoTime();
		}
		if (this.selecting.get()) {
			// the poll has returned: from here on the loop is busy, and finds a task handed to it
			// when its turn ends (a caller whose reply is handled here hands it the next command)
			this.selecting.lazySet(false);
		}
		Registration registration = (Registration) key.attachment();
		if (!registration.isValid()) {
			closeQuietly(registration.handle);
			return;
		}
		try {
			registration.handle.handle(registration, EVENTS[key.readyOps() & (EVENTS.length - 1)]);
		}
		catch (CancelledKeyException ex) {
			closeQuietly(registration.handle);
		}
	}

	@Override
	public void wakeup() {
		if (!this.executor.isExecutorThread(Thread.currentThread()) && this.selecting.getAndSet(false)) {
			this.selectorWakeups.incrementAndGet();
			this.selector.wakeup();
		}
	}

	/** How many times a thread has woken this handler's selector: for tests. */
	long selectorWakeups() {
		return this.selectorWakeups.get();
	}

	/** Whether the loop may be blocked in its selector now: for tests. */
	boolean isSelecting() {
		return this.selecting.get();
	}

	@Override
	public boolean isCompatible(Class<? extends IoHandle> handleType) {
		return NioIoHandle.class.isAssignableFrom(handleType);
	}

	@Override
	public void prepareToDestroy() {
		List<Registration> registrations = new ArrayList<>();
		for (SelectionKey key : this.selector.keys()) {
			// a cancelled key stays in the set until the next select: its channel is not ours to close
			if (key.isValid()) {
				registrations.add((Registration) key.attachment());
			}
		}
		for (Registration registration : registrations) {
			registration.cancel();
			closeQuietly(registration.handle);
		}
	}

	@Override
	public void destroy() {
		try {
			this.selector.close();
		}
		catch (IOException ex) {
			logger.debug("Closing an event loop's selector failed", ex);
		}
	}

	private static void closeQuietly(IoHandle handle) {
		try {
			handle.close();
		}
		catch (Exception ex) {
			logger.debug("Closing a channel failed", ex);
		}
	}

	private static NioIoEvent[] readyEvents() {
		NioIoEvent[] events = new NioIoEvent[32];
		for (int ops = 0; ops < events.length; ops++) {
			events[ops] = new ReadyEvent(NioIoOps.valueOf(ops));
		}
		return events;
	}

	/** The operations a channel is ready for. */
	private record ReadyEvent(NioIoOps ops) implements NioIoEvent {

	}

	/** One channel's key in the selector; its attachment is the key, as Netty's NIO channels expect. */
	private static final class Registration implements IoRegistration {

		private final NioIoHandle handle;

		private final AtomicBoolean cancelled = new AtomicBoolean();

		private volatile SelectionKey key;

		Registration(NioIoHandle handle) {
			this.handle = handle;
		}

		@Override
		@SuppressWarnings("unchecked")
		public <T> T attachment() {
			return (T) this.key;
		}

		@Override
		public long submit(IoOps ops) {
			if (!isValid()) {
				return -1;
			}
			int interest = ((NioIoOps) ops).value();
			this.key.interestOps(interest);
			return interest;
		}

		@Override
		public boolean isValid() {
			SelectionKey current = this.key;
			// null when the channel's register threw (the JDK attaches before it fails)
			return !this.cancelled.get() && current != null && current.isValid();
		}

		@Override
		public boolean cancel() {
			SelectionKey current = this.key;
			if (current == null || !this.cancelled.compareAndSet(false, true)) {
				return false;
			}
			current.cancel();
			this.handle.unregistered();
			return true;
		}

	}

}
