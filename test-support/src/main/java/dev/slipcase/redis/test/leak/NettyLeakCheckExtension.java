package dev.slipcase.redis.test.leak;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reported a leaked buffer while it ran, and fails it up front when
 * the JVM was started without the recording, paranoid leak detector. Registered for every test
 * class through JUnit's extension auto-detection, which the build switches on.
 */
public final class NettyLeakCheckExtension implements BeforeAllCallback, AfterAllCallback {

	private static final Set<Class<?>> CHECKED = ConcurrentHashMap.newKeySet();

	/** Whether this extension checks {@code testClass}: it started checking it, so it is registered. */
	public static boolean isChecking(Class<?> testClass) {
		return CHECKED.contains(testClass);
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		context.getTestClass().ifPresent(CHECKED::add);
		if (!LeakReports.isRecording()) {
			throw new IllegalStateException("Tests must run with -Dio.netty.leakDetection.level=paranoid and "
					+ "-Dio.netty.customResourceLeakDetector=" + RecordingLeakDetector.class.getName()
					+ " (the build's surefire argLine sets both)");
		}
		// leaks of earlier classes are theirs: report those Netty found since the last class's own
		// check (which collected garbage) before this class starts
		LeakReports.assertNoneReported("the tests before " + context.getDisplayName());
	}

	@Override
	public void afterAll(ExtensionContext context) {
		LeakReports.assertNoLeaks(context.getDisplayName());
	}

}
