package dev.slipcase.redis.test.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.slipcase.redis.test.fault.FaultProxy;
import org.jspecify.annotations.Nullable;

/**
 * Runs callers against a store through a {@link FaultProxy} while a nemesis injects a random fault
 * every 200 to 500 ms (latency, lost replies, a cut, a reset, refused connections and, when given
 * a way to, a server crash and restart), all drawn from one seed, so that a run is replayed by its
 * seed. Leaves the proxy healed.
 */
public final class FaultyRun {

	/** What the nemesis does to the wire. */
	public enum Fault {

		/** 5 to 35 ms more each way, for 300 ms. */
		LATENCY,
		/** The server's replies held for 50 to 150 ms, then the connections cut and the replies dropped. */
		LOST_REPLIES,
		/** Every connection closed (FIN): the client replays what got no reply. */
		CUT,
		/** Every connection reset (RST). */
		RESET,
		/** Connections cut and new ones refused for 200 to 600 ms. */
		REFUSED,
		/**
		 * The server killed ({@code SIGKILL}) and started again from its append-only file; only
		 * when the run was given a way to restart it.
		 */
		RESTART

	}

	/** One caller's step: one operation, recorded in the history by the caller. */
	@FunctionalInterface
	public interface Step {

		void run(int process, int sequence, Random random);

	}

	private FaultyRun() {
	}

	/**
	 * Runs {@code threads} callers, each repeating {@code step} with a random of its own, for
	 * {@code duration}, injecting faults meanwhile.
	 * @return how many faults of each kind were injected
	 */
	public static Map<Fault, Integer> run(FaultProxy proxy, int threads, Duration duration, long seed, Step step)
			throws Exception {
		return run(proxy, null, threads, duration, seed, step);
	}

	/**
	 * Runs callers as {@link #run(FaultProxy, int, Duration, long, Step)} does, with
	 * {@link Fault#RESTART} among the faults when {@code restart} is given.
	 * @param restart crashes the server behind the proxy and starts it again, or {@code null}
	 */
	public static Map<Fault, Integer> run(FaultProxy proxy, @Nullable Runnable restart, int threads,
			Duration duration, long seed, Step step) throws Exception {
		List<Fault> kinds = new ArrayList<>(List.of(Fault.values()));
		if (restart == null) {
			kinds.remove(Fault.RESTART);
		}
		long deadline = System.nanoTime() + duration.toNanos();
		AtomicBoolean running = new AtomicBoolean(true);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int process = t;
			Random random = new Random(seed + 31L * (t + 1));
			workers.add(pool.submit(() -> {
				for (int sequence = 0; running.get(); sequence++) {
					step.run(process, sequence, random);
				}
				return null;
			}));
		}
		Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
		Random nemesis = new Random(seed);
		try {
			while (System.nanoTime() < deadline) {
				Thread.sleep(200 + nemesis.nextInt(300));
				Fault fault = kinds.get(nemesis.nextInt(kinds.size()));
				// on the operations' clock (System.nanoTime), to read a failing history against
				System.out.println("nemesis: " + fault + " at " + System.nanoTime());
				inject(fault, proxy, restart, nemesis);
				faults.merge(fault, 1, Integer::sum);
			}
		}
		finally {
			proxy.heal();
			running.set(false);
			for (Future<?> worker : workers) {
				worker.get(2, TimeUnit.MINUTES);
			}
			pool.shutdown();
		}
		return faults;
	}

	private static void inject(Fault fault, FaultProxy proxy, @Nullable Runnable restart, Random random)
			throws InterruptedException {
		switch (fault) {
			case LATENCY -> {
				proxy.latency(Duration.ofMillis(5 + random.nextInt(30)));
				Thread.sleep(300);
				proxy.latency(Duration.ZERO);
			}
			case LOST_REPLIES -> {
				proxy.holdReplies();
				Thread.sleep(50 + random.nextInt(100));
				proxy.cutAndHeal();
			}
			case CUT -> proxy.cut();
			case RESET -> proxy.reset();
			case REFUSED -> {
				proxy.refuseConnections();
				proxy.cut();
				Thread.sleep(200 + random.nextInt(400));
				proxy.heal();
			}
			case RESTART -> {
				if (restart != null) {
					restart.run();
				}
			}
		}
	}

	/** A setting from a system property or the environment, else {@code fallback}. */
	public static long setting(String name, long fallback) {
		String value = System.getProperty(name, System.getenv(name));
		return (value == null || value.isBlank()) ? fallback : Long.parseLong(value.trim());
	}

}
