package dev.slipcase.redis.test.leak;

import io.netty.util.ResourceLeakDetector;

/**
 * A {@link ResourceLeakDetector} that records every leak it reports in {@link LeakReports} as
 * well as logging it, and reports even when no logger is enabled. Installed for every test JVM
 * by the build with {@code -Dio.netty.customResourceLeakDetector=}this class, next to
 * {@code -Dio.netty.leakDetection.level=paranoid}.
 *
 * @param <T> the type of resource tracked
 */
public class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {

	/** The constructor Netty's {@code ResourceLeakDetectorFactory} calls reflectively. */
	public RecordingLeakDetector(Class<?> resourceType, int samplingInterval) {
		super(resourceType, samplingInterval);
	}

	/** The obsolete constructor Netty's factory falls back to. */
	public RecordingLeakDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
		super(resourceType, samplingInterval, maxActive);
	}

	@Override
	protected boolean needReport() {
		return true;
	}

	@Override
	protected void reportTracedLeak(String resourceType, String records) {
		LeakReports.add("LEAK: " + resourceType + ".release() was not called before it was garbage-collected."
				+ records);
		super.reportTracedLeak(resourceType, records);
	}

	@Override
	protected void reportUntracedLeak(String resourceType) {
		LeakReports.add("LEAK: " + resourceType + ".release() was not called before it was garbage-collected "
				+ "(no access records: run with -Dio.netty.leakDetection.level=paranoid)");
		super.reportUntracedLeak(resourceType);
	}

}
