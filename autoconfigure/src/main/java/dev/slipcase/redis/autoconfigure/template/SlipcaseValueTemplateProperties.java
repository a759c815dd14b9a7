package dev.slipcase.redis.autoconfigure.template;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

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
	 * Whether sync reads decode on the calling thread (from a pooled copy of the reply) instead of
	 * the connection's event loop. Worth it when many threads read large values.
	 */
	private boolean callerThreadDecoding;

	/**
	 * Types the slipcaseValueTemplate bean may write and read, by the short type id stored with
	 * each value (e.g. order: com.example.Order). That bean exists only when this is set or a
	 * TypeAllowlist bean exists, which then takes precedence.
	 */
	private final Map<String, Class<?>> types = new LinkedHashMap<>();

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

	public boolean isCallerThreadDecoding() {
		return this.callerThreadDecoding;
	}

	public void setCallerThreadDecoding(boolean callerThreadDecoding) {
		this.callerThreadDecoding = callerThreadDecoding;
	}

	public Map<String, Class<?>> getTypes() {
		return this.types;
	}

}
