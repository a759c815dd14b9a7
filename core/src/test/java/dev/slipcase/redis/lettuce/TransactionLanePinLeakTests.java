package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.serializer.RecordingAllocator;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link TransactionLane} lets go of a block's values when it cannot send the block: here its
 * connector throws instead of failing its future, after the lane pinned the values, and the owner's
 * release must still free the buffer.
 */
class TransactionLanePinLeakTests {

	@Test
	void aBlockWhoseLaneThrowsAfterPinningLetsGoOfItsValues() {
		RecordingAllocator allocator = new RecordingAllocator(true);
		ConnectionHolder.Connector<byte[], byte[]> throwing = (database) -> {
			throw new IllegalStateException("client is shut down");
		};
		TransactionLane lane = new TransactionLane(
				ConnectionHolder.opening(throwing, ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(2)));
		EncodedValue value = EncodedValue.encode(Utf8StringFormat.INSTANCE, "value", allocator);
		QueuedWrites writes = QueuedWrites.of(1, 2);
		writes.command(CommandType.SET).add("k".getBytes()).add(value);
		try {
			CompletableFuture<TransactionResult> result = lane.execute(0, "k".getBytes(), writes);
			result.handle((ok, ex) -> null).join();
		}
		catch (RuntimeException thrown) {
			// the caller (BucketStore) releases its values when the call throws
		}
		value.release();
		assertThat(allocator.allReleased()).as("the value's buffer freed once its owner released it").isTrue();
	}

}
