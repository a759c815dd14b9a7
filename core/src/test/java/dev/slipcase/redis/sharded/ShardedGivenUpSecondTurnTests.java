package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A call given up while a later turn of it is being built never reads its values' freed bytes: a
 * read-through {@code setIfAbsent} builds its write turn on the event loop once {@code EXISTS}
 * answered, and its caller's timeout releases the values meanwhile. The allocator's buffers make
 * the interleaving deterministic: a read off the caller's thread waits until the buffer is freed
 * (at most 3 s), so a read that does not hold the bytes sees them freed.
 */
class ShardedGivenUpSecondTurnTests {

	private final RedisServer server = RedisServers.shared();

	private final AtomicInteger refCntAtRead = new AtomicInteger(-1);

	private final CountDownLatch freed = new CountDownLatch(1);

	private final Thread caller = Thread.currentThread();

	private RedisClient client;

	private ShardedTemplates templates;

	@BeforeEach
	void connect() {
		RedisURI uri = RedisURI.builder(RedisURI.create(this.server.endpoint().uri()))
			.withTimeout(Duration.ofMillis(300))
			.build();
		this.client = RedisClient.create(uri);
		this.templates = ShardedTemplates.create(this.client);
	}

	@AfterEach
	void disconnect() {
		this.templates.close();
		this.client.shutdown();
	}

	@Test
	void aReadThroughSetIfAbsentGivenUpWhileItsWriteTurnIsBuiltNeverReadsItsFreedValue() throws Exception {
		String name = "gu" + Long.toHexString(System.nanoTime() & 0xffffff);
		ShardedNamespace namespace = ShardedNamespace.builder(name).keyPrefix(name + ":").readThrough(true).build();
		SlipcaseRedisSerializer<String> serializer = SlipcaseRedisSerializer.of(Utf8StringFormat.INSTANCE, null,
				new SlowFirstByteAllocator());
		ShardedTemplate<String> template = this.templates.template(namespace, serializer);
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> template.setIfAbsent(name + ":1", "value"));
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (this.refCntAtRead.get() == -1 && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		assertThat(this.refCntAtRead.get()).as("the value's refCnt when the write turn read it").isPositive();
	}

	/** Direct buffers whose getByte waits until the buffer is freed (at most 3 s), then reads. */
	private final class SlowFirstByteAllocator extends AbstractByteBufAllocator {

		SlowFirstByteAllocator() {
			super(true);
		}

		@Override
		protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
			return newDirectBuffer(initialCapacity, maxCapacity);
		}

		@Override
		protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
			return new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity) {

				@Override
				public byte getByte(int index) {
					beforeRead(this);
					return super.getByte(index);
				}

				@Override
				public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
					beforeRead(this);
					return super.getBytes(index, dst, dstIndex, length);
				}

				@Override
				public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
					beforeRead(this);
					return super.getBytes(index, dst, dstIndex, length);
				}

				@Override
				protected void deallocate() {
					super.deallocate();
					ShardedGivenUpSecondTurnTests.this.freed.countDown();
				}

			};
		}

		/**
		 * A read off the caller's thread (the write turn, on the event loop) waits until the buffer is
		 * freed, at most 3 s, and notes the reference count it reads at.
		 */
		private void beforeRead(ByteBuf buffer) {
			if (Thread.currentThread() == ShardedGivenUpSecondTurnTests.this.caller) {
				return;
			}
			try {
				ShardedGivenUpSecondTurnTests.this.freed.await(3, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			ShardedGivenUpSecondTurnTests.this.refCntAtRead.compareAndSet(-1, buffer.refCnt());
		}

		@Override
		public boolean isDirectBufferPooled() {
			return false;
		}

	}

}
