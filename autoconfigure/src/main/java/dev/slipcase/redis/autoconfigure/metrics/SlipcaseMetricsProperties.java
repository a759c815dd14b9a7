package dev.slipcase.redis.autoconfigure.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Observability settings of Slipcase: its Micrometer meters and the {@code slipcase} actuator
 * endpoint.
 */
@ConfigurationProperties("slipcase.redis.metrics")
public class SlipcaseMetricsProperties {

	/**
	 * Whether to publish Slipcase's meters (slipcase.redis.*) to the application's MeterRegistry.
	 */
	private boolean enabled = true;

	/**
	 * How many buckets of each sharded namespace the slipcase endpoint samples for its memory report.
	 */
	private int reportBuckets = 100;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getReportBuckets() {
		return this.reportBuckets;
	}

	public void setReportBuckets(int reportBuckets) {
		if (reportBuckets < 1) {
			throw new IllegalArgumentException("slipcase.redis.metrics.report-buckets must be at least 1, was " + reportBuckets);
		}
		this.reportBuckets = reportBuckets;
	}

}
