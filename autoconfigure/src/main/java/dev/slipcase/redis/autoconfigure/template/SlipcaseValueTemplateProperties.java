package dev.slipcase.redis.autoconfigure.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.autoconfigure.NearTierProperties;
import dev.slipcase.redis.template.UnacknowledgedWrites;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the zero-copy value templates.
 */
@ConfigurationProperties("slipcase.redis.template")
public class SlipcaseValueTemplateProperties {

	/**
	 * Whether to create the zero-copy value templates: the ValueTemplates factory and the
	 * template of the allowlisted types.
	 */
	private boolean enabled = true;

	/**
	 * Database the templates' commands go to. The connection factory's database when not set.
	 */
	private @Nullable Integer database;

	/**
	 * Stored size from which sync reads decode on the calling thread (from a pooled copy of the
	 * reply) instead of the connection's event loop, which would otherwise parse every large value
	 * of every thread; 0 decodes every value on the caller's thread.
	 */
	private DataSize callerThreadDecodingFrom = DataSize.ofKilobytes(16);

	/**
	 * What a write whose reply was lost with its connection does after Lettuce reconnects: 'fail'
	 * (it is not written again and fails as unknown: never applied twice, never over a newer value)
	 * or 'resend' (Lettuce's at-least-once: written again, so an increment may apply twice).
	 */
	private UnacknowledgedWrites unacknowledgedWrites = UnacknowledgedWrites.FAIL;

	/**
	 * Types the slipcaseValueTemplate bean may write and read, by the short type id stored with
	 * each value (e.g. order: com.example.Order). That bean exists only when this is set or a
	 * TypeAllowlist bean exists, which then takes precedence.
	 */
	private final Map<String, Class<?>> types = new LinkedHashMap<>();

	/**
	 * Near tier of the slipcaseValueTemplate bean's reads.
	 */
	private final Near near = new Near();

	/**
	 * Streaming of large values: upload and download.
	 */
	private final Transfer transfer = new Transfer();

	public Near getNear() {
		return this.near;
	}

	public Transfer getTransfer() {
		return this.transfer;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Integer getDatabase() {
		return this.database;
	}

	public void setDatabase(@Nullable Integer database) {
		this.database = database;
	}

	public DataSize getCallerThreadDecodingFrom() {
		return this.callerThreadDecodingFrom;
	}

	public void setCallerThreadDecodingFrom(DataSize callerThreadDecodingFrom) {
		this.callerThreadDecodingFrom = callerThreadDecodingFrom;
	}

	public UnacknowledgedWrites getUnacknowledgedWrites() {
		return this.unacknowledgedWrites;
	}

	public void setUnacknowledgedWrites(UnacknowledgedWrites unacknowledgedWrites) {
		this.unacknowledgedWrites = unacknowledgedWrites;
	}

	public Map<String, Class<?>> getTypes() {
		return this.types;
	}

	/** The near tier of the {@code slipcaseValueTemplate} bean's reads. */
	public static class Near extends NearTierProperties {

		/**
		 * Prefixes of the keys whose values the near tier may hold; Redis reports every change
		 * under them. At least one when the tier is enabled; an empty string tracks every key.
		 */
		private List<String> keyPrefixes = new ArrayList<>();

		public List<String> getKeyPrefixes() {
			return this.keyPrefixes;
		}

		public void setKeyPrefixes(List<String> keyPrefixes) {
			this.keyPrefixes = keyPrefixes;
		}

	}

	/** How {@code upload} and {@code download} move large values. */
	public static class Transfer {

		/**
		 * Size of the chunks large values move in: one APPEND or GETRANGE each. An upload gathers
		 * the incoming buffers into chunks this size however they arrive.
		 */
		private DataSize chunkSize = DataSize.ofKilobytes(256);

		/**
		 * Chunks a reactive upload or download holds at most: a download's chunks read from Redis
		 * and not yet released by its subscriber (written to the socket, for WebFlux) whatever the
		 * subscriber requests, an upload's APPENDs in flight. Also how many are pipelined.
		 */
		private int window = 8;

		public DataSize getChunkSize() {
			return this.chunkSize;
		}

		public void setChunkSize(DataSize chunkSize) {
			this.chunkSize = chunkSize;
		}

		public int getWindow() {
			return this.window;
		}

		public void setWindow(int window) {
			this.window = window;
		}

	}

}
