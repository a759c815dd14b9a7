package dev.slipcase.redis.serializer.jdk;

/**
 * Where a feature (a cache, sessions, a template) stands in its switch from JDK-serialized values
 * to Slipcase's: what it writes, and whether it reads JDK values at all.
 */
public enum SwitchOverPhase {

	/**
	 * Writes JDK-serialized values, which instances without Slipcase read, and reads both: for a
	 * fleet that still runs such instances, and for rolling back to them.
	 */
	WRITE_JDK,

	/** Writes Slipcase's format and still reads JDK-serialized values that are left in Redis. */
	READ_JDK,

	/** Writes and reads Slipcase's format only: a JDK-serialized value is not read at all. */
	DONE;

	/** Whether a JDK-serialized value is read (through the allowlist) rather than refused. */
	public boolean readsJdk() {
		return this != DONE;
	}

	/** Whether values are written JDK-serialized. */
	public boolean writesJdk() {
		return this == WRITE_JDK;
	}

}
