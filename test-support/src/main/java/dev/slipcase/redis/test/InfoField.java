package dev.slipcase.redis.test;

/** Reads {@code field:value} lines from an {@code INFO} or {@code CLUSTER INFO} reply. */
public final class InfoField {

	private InfoField() {
	}

	/**
	 * The value of {@code field} in {@code info}.
	 * @throws IllegalStateException when the reply has no such field
	 */
	public static String read(String info, String field) {
		String prefix = field + ":";
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(prefix)) {
				return line.substring(prefix.length()).trim();
			}
		}
		throw new IllegalStateException("No '" + field + "' in INFO reply");
	}

}
