package dev.slipcase.redis.serializer.compression;

import java.util.SplittableRandom;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.SerializationException;

import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.compress;
import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.decompress;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** LZ4's documented layout, its size cap against lying prefixes, and its settings. */
class Lz4CompressorTests {

	private static final int CAP = 1 << 20;

	private final Lz4Compressor compressor = Lz4Compressor.create();

	@Test
	void writesSizeChecksumAndBlock() {
		byte[] original = Samples.text(new SplittableRandom(1), 300);
		ByteBuf value = Unpooled.wrappedBuffer(compress(this.compressor, original));
		try {
			assertThat((int) value.readUnsignedByte()).isEqualTo(0x80 | (300 & 0x7F));
			assertThat((int) value.readUnsignedByte()).isEqualTo(300 >>> 7);
			assertThat(value.readInt())
				.isEqualTo(XXHashFactory.safeInstance().hash32().hash(original, 0, original.length, 0));
			byte[] block = BufferKind.toBytes(value);
			assertThat(LZ4Factory.safeInstance().safeDecompressor().decompress(block, 300)).isEqualTo(original);
		}
		finally {
			value.release();
		}
	}

	@Test
	void refusesSizeAboveTheCapBeforeAllocating() {
		ByteBuf value = Unpooled.buffer();
		value.writeBytes(new byte[] { (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07 }); // 2^31 - 1
		value.writeInt(0).writeByte(0);
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(value, out, CAP))
				.withMessageContaining("lz4")
				.withMessageContaining("declares 2147483647 bytes, more than the maximum decompressed size of " + CAP);
			assertThat(out.capacity()).as("nothing allocated").isEqualTo(16);
		}
		finally {
			value.release();
			out.release();
		}
	}

	@Test
	void refusesSizeNoBlockOfItsLengthCanHoldBeforeAllocating() {
		ByteBuf value = Unpooled.buffer();
		value.writeBytes(new byte[] { (byte) 0x80, (byte) 0x80, 0x40 }); // 2^20, within the cap
		value.writeInt(0).writeBytes(new byte[10]);
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(value, out, CAP))
				.withMessageContaining("more than an LZ4 block of 10 can hold");
			assertThat(out.capacity()).isEqualTo(16);
		}
		finally {
			value.release();
			out.release();
		}
	}

	@Test
	void refusesBlockThatExpandsBeyondItsDeclaredSize() {
		byte[] zeros = new byte[100_000];
		byte[] block = LZ4Factory.safeInstance().fastCompressor().compress(zeros);
		ByteBuf value = Unpooled.buffer();
		value.writeByte(100).writeInt(XXHashFactory.safeInstance().hash32().hash(zeros, 0, 100, 0)).writeBytes(block);
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(value, out, CAP))
				.withMessageContaining("lz4")
				.withMessageContaining("corrupt");
			assertThat(out.capacity()).isLessThan(1024);
			assertThat(value.readerIndex()).as("input untouched on failure").isZero();
		}
		finally {
			value.release();
			out.release();
		}
	}

	@Test
	void highCompressionIsReadByTheFastCompressor() {
		byte[] original = Samples.text(new SplittableRandom(2), 50_000);
		byte[] high = compress(Lz4Compressor.highCompression(12), original);
		assertThat(high.length).isLessThan(compress(this.compressor, original).length);
		assertThat(decompress(this.compressor, high, CAP)).isEqualTo(original);
	}

	@Test
	void refusesLevelOutOfRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> Lz4Compressor.highCompression(0))
			.withMessageContaining("level");
		assertThatIllegalArgumentException().isThrownBy(() -> Lz4Compressor.highCompression(18))
			.withMessageContaining("level");
	}

	@Test
	void hasStableIdAndName() {
		assertThat(this.compressor.id()).isEqualTo(1);
		assertThat(this.compressor.name()).isEqualTo("lz4");
	}

}
