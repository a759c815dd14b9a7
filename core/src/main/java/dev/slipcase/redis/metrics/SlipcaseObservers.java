package dev.slipcase.redis.metrics;

import java.util.ArrayList;
import java.util.List;

import org.springframework.util.Assert;


/**
 * The JVM-wide registration point of {@link SlipcaseObserver}s, for what is built without an
 * observer of its own: a format reports to its own observer when it was given one (an application
 * context's meters, through {@code SlipcaseSerializerFamily.Builder.observer}), else to
 * {@link #global()}, which forwards to the observers registered here. Shared constants such as
 * {@code SlipcaseSerializers.string()} report here. With no observer registered,
 * {@link #current()} is {@link SlipcaseObserver#NOOP}, and an instrumented call costs one
 * volatile read and an empty call on primitives and constant names: nothing is allocated. With
 * several registered, each receives every event sent here.
 * <p>
 * Thread-safe. Registration is rare (start-up, shutdown) and copies; reading never locks.
 */
public final class SlipcaseObservers {

	private static final List<SlipcaseObserver> registered = new ArrayList<>();

	private static volatile SlipcaseObserver current = SlipcaseObserver.NOOP;

	private SlipcaseObservers() {
	}

	/**
	 * The observer instrumented code reports to: {@link SlipcaseObserver#NOOP} when none is
	 * registered, the one registered, or one that forwards to each registered observer.
	 * @return the observer, never {@code null}
	 */
	public static SlipcaseObserver current() {
		return current;
	}

	/**
	 * An observer that forwards every event to {@link #current()} at the time of the event: what a
	 * format, serializer or template reports to when it was given no observer of its own.
	 * @return the forwarding observer, never {@code null}
	 */
	public static SlipcaseObserver global() {
		return GLOBAL;
	}

	/**
	 * One observer for {@code observers}: {@link SlipcaseObserver#NOOP} for none, the observer
	 * itself for one, else one that forwards each event to each of them in order.
	 * @param observers the observers, never {@code null}
	 */
	public static SlipcaseObserver of(List<? extends SlipcaseObserver> observers) {
		if (observers == null) {
			throw new IllegalArgumentException("observers must not be null");
		}
		return switch (observers.size()) {
			case 0 -> SlipcaseObserver.NOOP;
			case 1 -> observers.get(0);
			default -> new Composite(observers.toArray(new SlipcaseObserver[0]));
		};
	}

	/**
	 * Starts reporting to {@code observer} until the returned registration is closed.
	 * @param observer the observer, never {@code null}
	 * @return a handle whose {@link Registration#close()} stops reporting to it (idempotent)
	 */
	public static Registration register(SlipcaseObserver observer) {
		Assert.notNull(observer, "observer must not be null");
		synchronized (registered) {
			registered.add(observer);
			refresh();
		}
		return new Registration(observer);
	}

	private static void unregister(SlipcaseObserver observer) {
		synchronized (registered) {
			for (int i = 0; i < registered.size(); i++) {
				if (registered.get(i) == observer) {
					registered.remove(i);
					break;
				}
			}
			refresh();
		}
	}

	private static void refresh() {
		current = of(registered);
	}

	/** An observer's registration; closing it stops reporting to the observer. */
	public static final class Registration implements AutoCloseable {

		private final SlipcaseObserver observer;

		private boolean closed;

		private Registration(SlipcaseObserver observer) {
			this.observer = observer;
		}

		/** The registered observer. */
		public SlipcaseObserver observer() {
			return this.observer;
		}

		/** Stops reporting to the observer. Idempotent. */
		@Override
		public void close() {
			synchronized (this) {
				if (this.closed) {
					return;
				}
				this.closed = true;
			}
			unregister(this.observer);
		}

	}

	private static final SlipcaseObserver GLOBAL = new Global();

	/** Forwards every event to {@link #current()}. */
	private static final class Global implements SlipcaseObserver {

		@Override
		public void valueWritten(String format, int bytes) {
			current.valueWritten(format, bytes);
		}

		@Override
		public void valueRead(String format, int bytes) {
			current.valueRead(format, bytes);
		}

		@Override
		public void serializationFailed(String format, Operation operation) {
			current.serializationFailed(format, operation);
		}

		@Override
		public void compressed(String compressor, int bytesIn, int bytesOut) {
			current.compressed(compressor, bytesIn, bytesOut);
		}

		@Override
		public void leaseOpened() {
			current.leaseOpened();
		}

		@Override
		public void leaseClosed() {
			current.leaseClosed();
		}

		@Override
		public void overflowWritten(String namespace, int count) {
			current.overflowWritten(namespace, count);
		}

		@Override
		public void memoryReported(String namespace, int sampledBuckets, int flippedBuckets) {
			current.memoryReported(namespace, sampledBuckets, flippedBuckets);
		}

		@Override
		public void cacheEntryUnreadable(String cache) {
			current.cacheEntryUnreadable(cache);
		}

		@Override
		public void jdkValueRead(String feature, String name) {
			current.jdkValueRead(feature, name);
		}

		@Override
		public String toString() {
			return "SlipcaseObservers.global()";
		}

	}

	/** Forwards every event to each of several observers. */
	private static final class Composite implements SlipcaseObserver {

		private final SlipcaseObserver[] observers;

		Composite(SlipcaseObserver[] observers) {
			this.observers = observers;
		}

		@Override
		public void valueWritten(String format, int bytes) {
			for (SlipcaseObserver observer : this.observers) {
				observer.valueWritten(format, bytes);
			}
		}

		@Override
		public void valueRead(String format, int bytes) {
			for (SlipcaseObserver observer : this.observers) {
				observer.valueRead(format, bytes);
			}
		}

		@Override
		public void serializationFailed(String format, Operation operation) {
			for (SlipcaseObserver observer : this.observers) {
				observer.serializationFailed(format, operation);
			}
		}

		@Override
		public void compressed(String compressor, int bytesIn, int bytesOut) {
			for (SlipcaseObserver observer : this.observers) {
				observer.compressed(compressor, bytesIn, bytesOut);
			}
		}

		@Override
		public void leaseOpened() {
			for (SlipcaseObserver observer : this.observers) {
				observer.leaseOpened();
			}
		}

		@Override
		public void leaseClosed() {
			for (SlipcaseObserver observer : this.observers) {
				observer.leaseClosed();
			}
		}

		@Override
		public void overflowWritten(String namespace, int count) {
			for (SlipcaseObserver observer : this.observers) {
				observer.overflowWritten(namespace, count);
			}
		}

		@Override
		public void memoryReported(String namespace, int sampledBuckets, int flippedBuckets) {
			for (SlipcaseObserver observer : this.observers) {
				observer.memoryReported(namespace, sampledBuckets, flippedBuckets);
			}
		}

		@Override
		public void cacheEntryUnreadable(String cache) {
			for (SlipcaseObserver observer : this.observers) {
				observer.cacheEntryUnreadable(cache);
			}
		}

		@Override
		public void jdkValueRead(String feature, String name) {
			for (SlipcaseObserver observer : this.observers) {
				observer.jdkValueRead(feature, name);
			}
		}

	}

}
