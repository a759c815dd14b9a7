package dev.slipcase.redis.test.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.slipcase.redis.test.history.Operation.Kind;
import org.jspecify.annotations.Nullable;

/**
 * Judges a {@link History} key by key, each key a register or, when any operation increments it,
 * a counter starting at zero; every anomaly names the operations that make it one.
 * <p>
 * A register: each read must return a value some write could have left, given real time. The
 * writes are the acknowledged ({@code OK}) and unknown ({@code INFO}) sets and deletes (a delete
 * writes "no value", as does the empty start); a conditional set counts when it said it wrote or
 * its outcome is unknown. An unknown write may have been applied or not, but only between its
 * invocation and its completion: a write that lands after its caller was told it failed or timed
 * out is an anomaly too. So a read returning the value of write {@code w} is wrong when {@code w}
 * was not invoked before the read completed, or when some other acknowledged write {@code W}
 * completed before the read began and began after {@code w} completed (the read is older than
 * {@code W}). That covers a lost update, a stale read, a resurrected delete and a value written
 * twice.
 * <p>
 * A counter: each value read or returned by an acknowledged increment lies between the sum of
 * the acknowledged increments completed before it began (plus its own) and the sum of every
 * acknowledged or unknown increment invoked before it completed: an increment applied twice, or
 * lost, falls outside.
 */
public final class HistoryChecker {

	private HistoryChecker() {
	}

	/** The anomalies of {@code operations}, empty when the history is valid. */
	public static List<String> check(List<Operation> operations) {
		Map<String, List<Operation>> byKey = new LinkedHashMap<>();
		for (Operation operation : operations) {
			byKey.computeIfAbsent(operation.key(), (key) -> new ArrayList<>()).add(operation);
		}
		List<String> anomalies = new ArrayList<>();
		byKey.forEach((key, history) -> {
			if (history.stream().anyMatch((operation) -> operation.kind() == Kind.INCREMENT)) {
				checkCounter(key, history, anomalies);
			}
			else {
				checkRegister(key, history, anomalies);
			}
		});
		return anomalies;
	}

	private static void checkRegister(String key, List<Operation> history, List<String> anomalies) {
		List<Write> writes = new ArrayList<>();
		writes.add(new Write(null, Long.MIN_VALUE, Long.MIN_VALUE, true, null));
		for (Operation operation : history) {
			if (!operation.kind().writesRegister() || operation.outcome() == Outcome.FAIL) {
				continue;
			}
			if (operation.kind() == Kind.SET_IF_ABSENT && operation.outcome() == Outcome.OK
					&& !"true".equals(operation.result())) {
				continue;
			}
			String value = (operation.kind() == Kind.DELETE) ? null : operation.argument();
			writes.add(new Write(value, operation.invoked(), operation.completed(), operation.outcome() == Outcome.OK,
					operation));
		}
		Map<@Nullable String, List<Write>> byValue = new HashMap<>();
		writes.forEach((write) -> byValue.computeIfAbsent(write.value(), (value) -> new ArrayList<>()).add(write));
		// the acknowledged writes by completion, with the latest invocation among those completed so far:
		// a read that begins after W completed must not return a write that ended before W began
		List<Write> acknowledged = writes.stream()
			.filter(Write::acknowledged)
			.sorted(Comparator.comparingLong(Write::completed))
			.toList();
		long[] completions = new long[acknowledged.size()];
		Write[] latestBegun = new Write[acknowledged.size()];
		for (int i = 0; i < acknowledged.size(); i++) {
			Write write = acknowledged.get(i);
			completions[i] = write.completed();
			latestBegun[i] = (i > 0 && latestBegun[i - 1].invoked() > write.invoked()) ? latestBegun[i - 1] : write;
		}
		for (Operation read : history) {
			if (read.kind() != Kind.GET || read.outcome() != Outcome.OK) {
				continue;
			}
			int before = completedBefore(completions, read.invoked());
			Write newest = (before > 0) ? latestBegun[before - 1] : null;
			String problem = registerProblem(read, byValue.getOrDefault(read.result(), List.of()), newest);
			if (problem != null) {
				anomalies.add("key " + key + ": " + problem);
			}
		}
	}

	/** How many of the sorted {@code completions} are before {@code time}. */
	private static int completedBefore(long[] completions, long time) {
		int low = 0;
		int high = completions.length;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (completions[middle] < time) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

	/**
	 * What is wrong with {@code read}, given the writes of the value it returned and the
	 * acknowledged write that began last among those completed before the read began.
	 */
	private static @Nullable String registerProblem(Operation read, List<Write> sameValue, @Nullable Write newest) {
		Write source = null;
		for (Write candidate : sameValue) {
			if (candidate.invoked() >= read.completed()) {
				continue;
			}
			if (newest == null || candidate == newest || candidate.completed() >= newest.invoked()) {
				return null;
			}
			source = candidate;
		}
		if (source == null) {
			return read + " returned a value no acknowledged or unknown write invoked before it could have left";
		}
		return read + " is older than " + newest.operation() + ", acknowledged before the read began and begun after "
				+ ((source.operation() != null) ? source.operation() : "the start") + " had ended";
	}

	private static void checkCounter(String key, List<Operation> history, List<String> anomalies) {
		List<Operation> increments = history.stream()
			.filter((operation) -> operation.kind() == Kind.INCREMENT && operation.outcome() != Outcome.FAIL)
			.toList();
		for (Operation read : history) {
			boolean isRead = read.kind() == Kind.GET || read.kind() == Kind.INCREMENT;
			if (!isRead || read.outcome() != Outcome.OK) {
				continue;
			}
			long value = (read.result() != null) ? Long.parseLong(read.result()) : 0;
			long lower = (read.kind() == Kind.INCREMENT) ? Long.parseLong(Objects.requireNonNull(read.argument())) : 0;
			long upper = 0;
			for (Operation increment : increments) {
				long delta = Long.parseLong(Objects.requireNonNull(increment.argument()));
				if (increment != read && increment.outcome() == Outcome.OK && increment.completed() < read.invoked()) {
					lower += delta;
				}
				if (increment.invoked() < read.completed()) {
					upper += delta;
				}
			}
			if (value < lower || value > upper) {
				anomalies.add("key " + key + ": " + read + " is outside [" + lower + ", " + upper + "]: "
						+ ((value < lower) ? "acknowledged increments were lost" : "an increment was applied twice"));
			}
		}
	}

	/** A write of a register: its value ({@code null} for none) and when it may have taken effect. */
	private record Write(@Nullable String value, long invoked, long completed, boolean acknowledged,
			@Nullable Operation operation) {
	}

}
