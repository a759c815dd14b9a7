package dev.slipcase.redis.test.leak;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;

/**
 * The leak reports {@link RecordingLeakDetector} has made in this JVM and not yet handed out.
 * Thread-safe.
 */
public final class LeakReports {

	private static final List<String> reports = new ArrayList<>();

	private LeakReports() {
	}

	static synchronized void add(String report) {
		reports.add(report);
	}

	/** Takes and clears the reports made so far. */
	public static synchronized List<String> drain() {
		List<String> drained = List.copyOf(reports);
		reports.clear();
		return drained;
	}

	/**
	 * Makes Netty report the buffers that have become unreachable without being released: collects
	 * garbage, then allocates and releases tracked buffers, which in paranoid mode makes the
	 * detector poll its reference queue.
	 */
	public static void collect() {
		for (int round = 0; round < 3; round++) {
			System.gc();
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			PooledByteBufAllocator.DEFAULT.heapBuffer(1).release();
			PooledByteBufAllocator.DEFAULT.directBuffer(1).release();
			UnpooledByteBufAllocator.DEFAULT.directBuffer(1).release();
		}
	}

	/**
	 * Collects, then fails when any leak was reported.
	 * @param scope what just ran, for the message
	 * @throws AssertionError listing every report
	 */
	public static void assertNoLeaks(String scope) {
		collect();
		assertNoneReported(scope);
	}

	/**
	 * Fails when any leak was reported already, without collecting garbage first.
	 * @param scope what ran before, for the message
	 * @throws AssertionError listing every report
	 */
	public static void assertNoneReported(String scope) {
		List<String> found = drain();
		if (!found.isEmpty()) {
			throw new AssertionError(found.size() + " Netty buffer leak(s) reported during " + scope + ":\n"
					+ String.join("\n\n", found));
		}
	}

	/**
	 * Whether leak reports reach this class: the build installs {@link RecordingLeakDetector} and
	 * the paranoid level; a test JVM without them would find no leak at all.
	 */
	public static boolean isRecording() {
		ResourceLeakDetector<ByteBuf> detector = ResourceLeakDetectorFactory.instance()
			.newResourceLeakDetector(ByteBuf.class);
		return detector instanceof RecordingLeakDetector
				&& ResourceLeakDetector.getLevel() == ResourceLeakDetector.Level.PARANOID;
	}

}
