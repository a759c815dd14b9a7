package dev.slipcase.redis.test.history;

import org.jspecify.annotations.Nullable;

/**
 * One operation of a {@link History}: which caller ran what on which key, when it was invoked and
 * when it completed (nanoseconds of one monotonic clock), how it ended and what it returned.
 *
 * @param index the operation's place in the history, in order of invocation
 * @param process the caller (a thread) that ran it
 * @param kind what it did
 * @param key the key it touched
 * @param argument the value written, the increment as text, or {@code null}
 * @param invoked when it was invoked
 * @param completed when it completed
 * @param outcome how it ended
 * @param result what it returned: the value read, the new counter value as text, {@code "true"} or
 * {@code "false"} for a conditional write, or {@code null}
 * @param failure the failure's class and message for a {@code FAIL} or {@code INFO}, else {@code null}
 */
public record Operation(int index, int process, Kind kind, String key, @Nullable String argument, long invoked,
		long completed, Outcome outcome, @Nullable String result, @Nullable String failure) {

	/** What an operation does. */
	public enum Kind {

		/** Writes {@code argument}. */
		SET,
		/** Writes {@code argument} when the key has no value; {@code result} says whether it did. */
		SET_IF_ABSENT,
		/** Writes {@code argument}, keeping the key's TTL. */
		SET_KEEP_TTL,
		/** Reads the value, {@code null} when there is none. */
		GET,
		/** Deletes the value. */
		DELETE,
		/** Sets a TTL (long enough never to expire during the run); changes no value. */
		EXPIRE,
		/** Removes a TTL; changes no value. */
		PERSIST,
		/** Adds {@code argument} to a counter; {@code result} is the new value. */
		INCREMENT;

		/** Whether it may change the value of a register. */
		boolean writesRegister() {
			return this == SET || this == SET_IF_ABSENT || this == SET_KEEP_TTL || this == DELETE;
		}

	}

	@Override
	public String toString() {
		return "#" + this.index + " p" + this.process + " " + this.kind + " " + this.key
				+ ((this.argument != null) ? " " + abbreviated(this.argument) : "") + " [" + this.invoked + ", "
				+ this.completed + "] " + this.outcome
				+ ((this.result != null) ? " -> " + abbreviated(this.result) : "")
				+ ((this.failure != null) ? " (" + this.failure + ")" : "");
	}

	private static String abbreviated(String text) {
		return (text.length() <= 40) ? text : text.substring(0, 37) + "...";
	}

}
