package dev.slipcase.redis.lettuce;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Tests for {@link KeyGroups}: grouping keeps first-seen order, and replies come back in the caller's order. */
class KeyGroupsTests {

	@Test
	void keysOfOneSlotShareAGroupInTheCallersOrder() {
		List<String> keys = List.of("{a}1", "{b}1", "{a}2", "{b}2", "{a}3");
		KeyGroups groups = KeyGroups.bySlot(keys);
		assertThat(groups.count()).isEqualTo(2);
		assertThat(groups.positions(0)).containsExactly(0, 2, 4);
		assertThat(groups.select(1, keys)).containsExactly("{b}1", "{b}2");
		assertThat(SlotHash.getSlot(groups.select(0, keys).get(2))).isEqualTo(SlotHash.getSlot("{a}"));
	}

	@Test
	void repliesOfEachGroupGoBackToTheirKeysPositions() {
		List<String> keys = List.of("x1", "y1", "x2", "z1", "y2");
		KeyGroups groups = KeyGroups.by(keys, (key) -> key.charAt(0));
		List<List<String>> replies = new ArrayList<>();
		for (int group = 0; group < groups.count(); group++) {
			replies.add(groups.select(group, keys).stream().map(String::toUpperCase).toList());
		}
		assertThat(groups.reassemble(replies)).containsExactly("X1", "Y1", "X2", "Z1", "Y2");
	}

	@Test
	void positionsLeftOutOfEveryGroupReassembleAsNull() {
		List<String> keys = List.of("a", "b", "c", "d");
		KeyGroups groups = KeyGroups.by(keys, (i) -> i % 2 == 1, (key) -> "one");
		assertThat(groups.count()).isOne();
		assertThat(groups.positions(0)).containsExactly(1, 3);
		assertThat(groups.reassemble(List.of(List.of("B", "D")))).containsExactly(null, "B", null, "D");
	}

	@Test
	void numbersGroupAsTheMappedKeysDoEvenWhenTheyCollide() {
		// 40 numbers in 20 groups: multiples of 2^32 and negatives, which share low bits
		List<Long> numbers = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			long group = i % 20;
			numbers.add((group % 2 == 0) ? group << 32 : -1L - group);
		}
		KeyGroups byNumber = KeyGroups.byNumber(numbers, (i) -> i != 7, Long::longValue);
		KeyGroups byKey = KeyGroups.by(numbers, (i) -> i != 7, (number) -> number);
		assertThat(byNumber.count()).isEqualTo(byKey.count()).isEqualTo(20);
		for (int group = 0; group < byKey.count(); group++) {
			assertThat(byNumber.positions(group)).containsExactly(byKey.positions(group));
		}
		assertThat(KeyGroups.byNumber(List.of(5L), (i) -> true, Long::longValue).positions(0)).containsExactly(0);
	}

	@Test
	void groupsOfOneAreTheirPositionBeyondTheSharedArraysToo() {
		// 1,100 numbers, each its own group but 1,030 and 1,099, which share one
		List<Long> numbers = new ArrayList<>();
		for (long i = 0; i < 1100; i++) {
			numbers.add((i == 1099) ? 1030L : i);
		}
		KeyGroups groups = KeyGroups.byNumber(numbers, (i) -> true, Long::longValue);
		assertThat(groups.count()).isEqualTo(1099);
		for (int group = 0; group < groups.count(); group++) {
			int[] expected = (group == 1030) ? new int[] { 1030, 1099 } : new int[] { group };
			assertThat(groups.positions(group)).as("group %d", group).containsExactly(expected);
		}
	}

	@Test
	void allIsOneGroupOrNone() {
		assertThat(KeyGroups.all(3).positions(0)).containsExactly(0, 1, 2);
		assertThat(KeyGroups.all(0).count()).isZero();
		assertThat(KeyGroups.all(0).reassemble(List.of())).isEmpty();
	}

	@Test
	void aReplyPerGroupIsRequired() {
		assertThatIllegalArgumentException().isThrownBy(() -> KeyGroups.all(2).reassemble(List.of()))
			.withMessageContaining("Expected 1 replies");
	}

}
