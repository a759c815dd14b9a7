package dev.slipcase.redis.serializer.jdk;

import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SwitchOverSerializerTests {

	private static final JdkSerializationRedisSerializer SPRING = new JdkSerializationRedisSerializer();

	private final RedisSerializer<Object> json = asObjects(SlipcaseSerializers.json(JdkFormatTests.Order.class));

	private final RedisSerializer<Object> jdk = SlipcaseRedisSerializer.of(
			JdkFormat.of(JdkAllowlist.builder().allowJdkValueTypes().allowDeclared(JdkFormatTests.Order.class).build(),
					JdkLimits.DEFAULTS, getClass().getClassLoader()),
			Object.class);

	private final AtomicInteger jdkReads = new AtomicInteger();

	@SuppressWarnings("unchecked")
	private static RedisSerializer<Object> asObjects(RedisSerializer<?> serializer) {
		return (RedisSerializer<Object>) serializer;
	}

	private RedisSerializer<Object> in(SwitchOverPhase phase) {
		return SwitchOverSerializer.of(this.json, this.jdk, phase, this.jdkReads::incrementAndGet);
	}

	@Test
	void writingJdkWritesWhatInstancesWithoutSlipcaseRead() {
		byte[] written = in(SwitchOverPhase.WRITE_JDK).serialize(JdkFormatTests.order());
		assertThat(written).isEqualTo(SPRING.serialize(JdkFormatTests.order()));
	}

	@Test
	void everyPhaseButDoneReadsBothFormatsAndCountsTheJdkValues() {
		byte[] jdkBytes = SPRING.serialize(JdkFormatTests.order());
		byte[] jsonBytes = this.json.serialize(JdkFormatTests.order());
		for (SwitchOverPhase phase : new SwitchOverPhase[] { SwitchOverPhase.WRITE_JDK, SwitchOverPhase.READ_JDK }) {
			assertThat(in(phase).deserialize(jdkBytes)).isEqualTo(JdkFormatTests.order());
			assertThat(in(phase).deserialize(jsonBytes)).isEqualTo(JdkFormatTests.order());
		}
		assertThat(this.jdkReads).hasValue(2);
	}

	@Test
	void readingJdkWritesSlipcasesFormat() {
		assertThat(in(SwitchOverPhase.READ_JDK).serialize(JdkFormatTests.order()))
			.isEqualTo(this.json.serialize(JdkFormatTests.order()));
	}

	@Test
	void doneIsSlipcasesSerializerAloneAndReadsNoJdkValue() {
		assertThat(in(SwitchOverPhase.DONE)).isSameAs(this.json);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> in(SwitchOverPhase.DONE).deserialize(SPRING.serialize(JdkFormatTests.order())));
		assertThat(this.jdkReads).hasValue(0);
	}

	@Test
	void aRefusedJdkValueIsNotCounted() {
		byte[] gadget = SPRING.serialize(new JdkGadget());
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> in(SwitchOverPhase.READ_JDK).deserialize(gadget))
			.withMessageContaining("which is not allowed");
		assertThat(this.jdkReads).hasValue(0);
	}

	@Test
	void aJdkValueThatDoneCannotReadIsExplainedInWords() {
		byte[] jdkBytes = SPRING.serialize(JdkFormatTests.order());
		SerializationException failure = new SerializationException("json: cannot decode value: Invalid UTF-8 start byte 0xac");
		assertThat(SwitchOverSerializer.explain(jdkBytes, failure, "slipcase.redis.cache.switch-over"))
			.hasMessage("a JDK-serialized value (written before Slipcase, or by an instance without it), which "
					+ "slipcase.redis.cache.switch-over: done does not read")
			.hasCause(failure);
		assertThat(SwitchOverSerializer.explain("{".getBytes(), failure, "p")).isSameAs(failure);
		SerializationException refused = new SerializationException("jdk: refused a proxy class");
		assertThat(SwitchOverSerializer.explain(jdkBytes, refused, "p")).isSameAs(refused);
	}

}
