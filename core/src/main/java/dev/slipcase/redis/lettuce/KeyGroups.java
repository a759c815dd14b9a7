package dev.slipcase.redis.lettuce;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.function.ToLongFunction;

import io.lettuce.core.cluster.SlotHash;
import org.jspecify.annotations.Nullable;

/**
 * The positions of a caller's keys grouped for sending, one command per group, and the replies put
 * back in the caller's order: grouped by cluster slot (a multi-key command must stay in one slot),
 * or by anything else that must share a command, such as the bucket of a sharded key. Groups keep
 * the order in which their first key appears, and each group its keys in the caller's order.
 * Commands of different groups written together are split by node by Lettuce's cluster writer.
 * Immutable and thread-safe.
 */
public final class KeyGroups {

	/** No positions, no group. */
	private static final KeyGroups NONE = new KeyGroups(0, List.of());

	/** One position in one group: a single key, the most common call. */
	private static final KeyGroups ONE = new KeyGroups(1, List.<int[]>of(new int[] { 0 }));

	/**
	 * The positions of groups of one, {@code {i}} at index {@code i}, shared by every call: a call
	 * over many buckets (100 random keys among 1,000,000 fall in ~100) is mostly such groups.
	 */
	private static final int[][] SINGLES = new int[1024][];

	static {
		for (int i = 0; i < SINGLES.length; i++) {
			SINGLES[i] = new int[] { i };
		}
	}

	private final int size;

	private final List<int[]> groups;

	private KeyGroups(int size, List<int[]> groups) {
		this.size = size;
		this.groups = groups;
	}

	/** All {@code size} positions in one group (none when {@code size} is 0). */
	public static KeyGroups all(int size) {
		if (size <= 1) {
			return (size == 1) ? ONE : NONE;
		}
		int[] all = new int[size];
		Arrays.setAll(all, (i) -> i);
		return new KeyGroups(size, (size > 0) ? List.of(all) : List.of());
	}

	/** The positions of {@code keys} grouped by cluster slot. */
	public static KeyGroups bySlot(List<String> keys) {
		return by(keys, SlotHash::getSlot);
	}

	/** The positions of {@code items} grouped by what {@code classifier} says of each. */
	public static <T> KeyGroups by(List<T> items, Function<? super T, ?> classifier) {
		return by(items, (i) -> true, classifier);
	}

	/**
	 * The positions of {@code items} that {@code included} accepts, grouped by what
	 * {@code classifier} says of each; the others are in no group.
	 */
	public static <T> KeyGroups by(List<T> items, IntPredicate included, Function<? super T, ?> classifier) {
		if (items.size() == 1 && included.test(0)) {
			return ONE;
		}
		Map<Object, Integer> ids = new HashMap<>();
		return grouped(items.size(), included, (i) -> {
			Integer id = ids.putIfAbsent(classifier.apply(items.get(i)), ids.size());
			return (id != null) ? id : ids.size() - 1;
		});
	}

	/**
	 * The positions of {@code items} that {@code included} accepts, grouped by the number
	 * {@code classifier} gives each; the others are in no group. As {@link #by}, without a map entry
	 * or a boxed key per item: an open-addressed table holds the first position of each number, and
	 * {@code classifier} is asked again for that position's number where two numbers meet in the
	 * table, so it should be a cheap read of what each item already holds.
	 */
	public static <T> KeyGroups byNumber(List<T> items, IntPredicate included, ToLongFunction<? super T> classifier) {
		int size = items.size();
		if (size == 1 && included.test(0)) {
			return ONE;
		}
		// at most half full
		int mask = (Integer.highestOneBit(Math.max(1, 2 * size - 1)) << 1) - 1;
		int[] firstPlusOne = new int[mask + 1];
		int[] groupOf = new int[size];
		int[] counts = new int[size];
		int groups = 0;
		for (int i = 0; i < size; i++) {
			if (!included.test(i)) {
				groupOf[i] = -1;
				continue;
			}
			long number = classifier.applyAsLong(items.get(i));
			int slot = Long.hashCode(number * 0x9E3779B97F4A7C15L) & mask;
			while (firstPlusOne[slot] != 0 && classifier.applyAsLong(items.get(firstPlusOne[slot] - 1)) != number) {
				slot = (slot + 1) & mask;
			}
			int group;
			if (firstPlusOne[slot] == 0) {
				firstPlusOne[slot] = i + 1;
				group = groups++;
			}
			else {
				group = groupOf[firstPlusOne[slot] - 1];
			}
			groupOf[i] = group;
			counts[group]++;
		}
		return fromGroups(size, groupOf, counts, groups);
	}

	/**
	 * {@code size} positions, those {@code included} accepts in the group {@code groupOf} gives each:
	 * the ids of groups in the order of their first position, from 0.
	 */
	private static KeyGroups grouped(int size, IntPredicate included, IntUnaryOperator groupOf) {
		int[] groupOfPosition = new int[size];
		int[] counts = new int[size];
		int groups = 0;
		for (int i = 0; i < size; i++) {
			if (!included.test(i)) {
				groupOfPosition[i] = -1;
				continue;
			}
			int group = groupOf.applyAsInt(i);
			groups = Math.max(groups, group + 1);
			groupOfPosition[i] = group;
			counts[group]++;
		}
		return fromGroups(size, groupOfPosition, counts, groups);
	}

	/**
	 * {@code size} positions in {@code groups} groups: position {@code i} in {@code groupOf[i]} (-1 for
	 * none), {@code counts[g]} of them in group {@code g}, which this uses up. A group of one position
	 * below {@link #SINGLES}' length shares that position's array.
	 */
	private static KeyGroups fromGroups(int size, int[] groupOf, int[] counts, int groups) {
		int[][] positions = new int[groups][];
		for (int group = 0; group < groups; group++) {
			if (counts[group] > 1) {
				positions[group] = new int[counts[group]];
			}
		}
		// backwards, each group filled from its end: the caller's order
		for (int i = size - 1; i >= 0; i--) {
			int group = groupOf[i];
			if (group < 0) {
				continue;
			}
			if (positions[group] == null) {
				positions[group] = (i < SINGLES.length) ? SINGLES[i] : new int[] { i };
			}
			else {
				positions[group][--counts[group]] = i;
			}
		}
		return new KeyGroups(size, Arrays.asList(positions));
	}

	/** Whether two keys are in the same cluster slot, so that one command may touch both. */
	public static boolean sameSlot(String key, String other) {
		return SlotHash.getSlot(key) == SlotHash.getSlot(other);
	}

	/** The number of groups. */
	public int count() {
		return this.groups.size();
	}

	/**
	 * The caller's positions in group {@code group}, in the caller's order: an array other calls may
	 * share, never to be modified.
	 */
	public int[] positions(int group) {
		return this.groups.get(group);
	}

	/**
	 * The items at the positions of {@code group}, in the caller's order: {@code items} itself when
	 * the group holds every position; do not modify.
	 */
	public <T> List<T> select(int group, List<T> items) {
		int[] positions = this.groups.get(group);
		if (this.groups.size() == 1 && positions.length == this.size && this.size == items.size()) {
			return items;
		}
		List<T> selected = new ArrayList<>(positions.length);
		for (int position : positions) {
			selected.add(items.get(position));
		}
		return selected;
	}

	/**
	 * The replies of all groups in the caller's order: the {@code i}-th reply of group {@code g}
	 * at position {@code positions(g)[i]}, {@code null} at positions in no group.
	 * @param replies one list per group, each as long as its group
	 */
	public <R> List<@Nullable R> reassemble(List<? extends List<? extends @Nullable R>> replies) {
		if (replies.size() != this.groups.size()) {
			throw new IllegalArgumentException("Expected " + this.groups.size() + " replies, got " + replies.size());
		}
		List<@Nullable R> ordered = new ArrayList<>(this.size);
		for (int i = 0; i < this.size; i++) {
			ordered.add(null);
		}
		for (int group = 0; group < this.groups.size(); group++) {
			int[] positions = this.groups.get(group);
			List<? extends @Nullable R> reply = replies.get(group);
			for (int i = 0; i < positions.length; i++) {
				ordered.set(positions[i], reply.get(i));
			}
		}
		return ordered;
	}

}
