package dev.slipcase.redis.serializer.compression;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Zstd's frame layout, its size cap against crafted bombs, and its settings. */
class ZstdCompressorTests {

	private static final int CAP = 1 << 20;

	private final ZstdCompressor compressor = ZstdCompressor.create();

	@Test
	void writesMagiclessFramesWithContentSizeAndChecksum() {
		byte[] original = Samples.text(new SplittableRandom(1), 5000);
		byte[] frame = compress(this.compressor, original);
		ZstdFrameHeader header = ZstdFrameHeader.read(Unpooled.wrappedBuffer(frame), "zstd");
		assertThat(header.magicless()).isTrue();
		assertThat(header.contentSize()).isEqualTo(original.length);
		assertThat(header.checksum()).isTrue();
		assertThat(header.dictionaryId()).isZero();
		byte[] standard = new byte[frame.length + 4];
		System.arraycopy(ZstdFrameHeader.MAGIC_BYTES, 0, standard, 0, 4);
		System.arraycopy(frame, 0, standard, 4, frame.length);
		assertThat(Zstd.decompress(standard, original.length)).as("a standard frame once the magic is prepended")
			.isEqualTo(original);
	}

	@Test
	void readsStandardFrames() {
		byte[] original = Samples.text(new SplittableRandom(5), 5000);
		byte[] standard = Zstd.compress(original, 3);
		assertThat(ZstdFrameHeader.read(Unpooled.wrappedBuffer(standard), "zstd").magicless()).isFalse();
		assertThat(decompress(this.compressor, standard, CAP)).isEqualTo(original);
	}

	@Test
	void readsMagiclessFramesWithoutContentSize() {
		ByteBuf frame = Unpooled.buffer();
		frame.writeByte(0x00).writeByte(7 << 3); // no magic, no size, window 2^17
		rleBlock(frame, 'm', 1000, true);
		ByteBuf out = Unpooled.buffer(16);
		try {
			this.compressor.decompress(frame, out, CAP);
			assertThat(out.readableBytes()).isEqualTo(1000);
			assertThat(out.forEachByte((b) -> b == 'm')).isEqualTo(-1);
		}
		finally {
			frame.release();
			out.release();
		}
	}

	@Test
	void readsFramesWithoutContentSizeFromOtherWriters() throws IOException {
		byte[] original = Samples.text(new SplittableRandom(2), 300_000);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ZstdOutputStreamNoFinalizer stream = new ZstdOutputStreamNoFinalizer(bytes)) {
			stream.write(original);
		}
		byte[] frame = bytes.toByteArray();
		assertThat(ZstdFrameHeader.read(Unpooled.wrappedBuffer(frame), "zstd").contentSize())
			.as("a streamed frame declares no size").isEqualTo(ZstdFrameHeader.UNKNOWN);
		assertThat(decompress(this.compressor, frame, CAP)).isEqualTo(original);
	}

	@Test
	void refusesFrameDeclaringMoreThanTheCapBeforeAllocating() {
		ByteBuf frame = Unpooled.buffer();
		frame.writeIntLE(0xFD2FB528).writeByte(0xE0).writeLongLE(4L << 30); // single segment, 8-byte size: 4 GiB
		rleBlock(frame, 'x', 128 * 1024, true);
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(frame, out, CAP))
				.withMessageContaining("zstd")
				.withMessageContaining("declares 4294967296")
				.withMessageContaining("maximum decompressed size of " + CAP);
			assertThat(out.capacity()).as("nothing allocated").isEqualTo(16);
		}
		finally {
			frame.release();
			out.release();
		}
	}

	@Test
	void refusesSizeNoFrameOfItsLengthCanHoldBeforeAllocating() {
		ByteBuf frame = Unpooled.buffer();
		frame.writeByte(0xA0).writeIntLE(CAP); // magicless, single segment, 4-byte size: the cap itself
		rleBlock(frame, 'x', 1000, true);
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(frame, out, CAP))
				.withMessageContaining("more than a frame of 9 bytes can hold");
			assertThat(out.capacity()).as("nothing allocated").isEqualTo(16);
		}
		finally {
			frame.release();
			out.release();
		}
	}

	@Test
	void refusesFrameWithoutSizeThatInflatesToAGibibyteAtTheCap() {
		// 32 KB of RLE blocks that expand to 1 GiB, declaring no content size
		ByteBuf frame = Unpooled.buffer();
		frame.writeIntLE(0xFD2FB528).writeByte(0x00).writeByte(7 << 3); // no size, window 2^17
		for (int block = 0; block < 8192; block++) {
			rleBlock(frame, 0, 128 * 1024, block == 8191);
		}
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThat(frame.readableBytes()).isLessThan(40 * 1024);
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(frame, out, CAP))
				.withMessageContaining("zstd")
				.withMessageContaining("inflates to more than the maximum decompressed size of " + CAP);
			assertThat(out.capacity()).as("at most a few steps past the cap allocated").isLessThanOrEqualTo(4 * CAP);
			assertThat(out.writerIndex()).isZero();
		}
		finally {
			frame.release();
			out.release();
		}
	}

	@Test
	void decompressesFrameWithoutSizeBelowTheCapInSteps() {
		ByteBuf frame = Unpooled.buffer();
		frame.writeIntLE(0xFD2FB528).writeByte(0x00).writeByte(7 << 3);
		for (int block = 0; block < 3; block++) {
			rleBlock(frame, 'z', 100_000, block == 2);
		}
		ByteBuf out = Unpooled.directBuffer(16);
		try {
			this.compressor.decompress(frame, out, CAP);
			assertThat(out.readableBytes()).isEqualTo(300_000);
			assertThat(out.forEachByte((b) -> b == 'z')).isEqualTo(-1);
			assertThat(frame.isReadable()).isFalse();
		}
		finally {
			frame.release();
			out.release();
		}
	}

	@Test
	void refusesFrameWithoutSizeWhoseWindowExceedsTheCap() {
		ByteBuf frame = Unpooled.buffer();
		frame.writeIntLE(0xFD2FB528).writeByte(0x00).writeByte(20 << 3); // window 2^30
		rleBlock(frame, 0, 1000, true);
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(frame, out, CAP))
				.withMessageContaining("a window of 1073741824 bytes, more than the maximum of 8388608");
		}
		finally {
			frame.release();
			out.release();
		}
	}

	@Test
	void refusesSkippableFrame() {
		byte[] skippable = { 0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0 };
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> decompress(this.compressor, skippable, CAP))
			.withMessageContaining("skippable frame");
	}

	@Test
	void levelIsUsed() {
		byte[] original = Samples.text(new SplittableRandom(3), 50_000);
		int fast = compress(ZstdCompressor.create(-5), original).length;
		int strong = compress(ZstdCompressor.create(19), original).length;
		assertThat(strong).isLessThan(fast);
		assertThat(ZstdCompressor.create(19).level()).isEqualTo(19);
	}

	@Test
	void refusesLevelOutOfRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> ZstdCompressor.create(23)).withMessageContaining("level");
		assertThatIllegalArgumentException().isThrownBy(() -> ZstdCompressor.create(0)).withMessageContaining("level");
	}

	@Test
	void refusesNegativeCap() {
		assertThatIllegalArgumentException().isThrownBy(() -> decompress(this.compressor, new byte[10], -1))
			.withMessageContaining("maxDecompressedSize");
	}

	@Test
	void hasStableIdAndName() {
		assertThat(this.compressor.id()).isEqualTo(2);
		assertThat(this.compressor.name()).isEqualTo("zstd");
	}

	/** A raw block header (RFC 8878 3.1.1.2): last flag, type 1 (RLE), regenerated size; then the byte. */
	private static void rleBlock(ByteBuf frame, int value, int size, boolean last) {
		int header = (last ? 1 : 0) | (1 << 1) | (size << 3);
		frame.writeMediumLE(header).writeByte(value);
	}

	static byte[] compress(Compressor compressor, byte[] original) {
		ByteBuf in = Unpooled.wrappedBuffer(original);
		ByteBuf out = Unpooled.buffer();
		try {
			compressor.compress(in, out);
			return BufferKind.toBytes(out);
		}
		finally {
			in.release();
			out.release();
		}
	}

	static byte[] decompress(Compressor compressor, byte[] compressed, int cap) {
		ByteBuf in = Unpooled.wrappedBuffer(compressed);
		ByteBuf out = Unpooled.buffer();
		try {
			compressor.decompress(in, out, cap);
			return BufferKind.toBytes(out);
		}
		finally {
			in.release();
			out.release();
		}
	}

}
