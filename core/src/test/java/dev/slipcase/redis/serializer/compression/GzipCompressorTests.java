package dev.slipcase.redis.serializer.compression;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.SerializationException;

import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.compress;
import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.decompress;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** gzip's interoperability with other gzip tools, its size cap against bombs, and its settings. */
class GzipCompressorTests {

	private static final int CAP = 1 << 20;

	private final GzipCompressor compressor = GzipCompressor.create();

	@Test
	void writesGzipThatTheJdkReads() throws IOException {
		byte[] original = Samples.text(new SplittableRandom(1), 10_000);
		byte[] gzip = compress(this.compressor, original);
		try (GZIPInputStream stream = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			assertThat(stream.readAllBytes()).isEqualTo(original);
		}
	}

	@Test
	void readsGzipThatTheJdkWrites() throws IOException {
		byte[] original = Samples.text(new SplittableRandom(2), 10_000);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (GZIPOutputStream stream = new GZIPOutputStream(bytes)) {
			stream.write(original);
		}
		assertThat(decompress(this.compressor, bytes.toByteArray(), CAP)).isEqualTo(original);
	}

	@Test
	void readsOptionalHeaderFields() {
		byte[] original = Samples.text(new SplittableRandom(3), 1000);
		byte[] plain = compress(this.compressor, original);
		ByteBuf header = Unpooled.buffer();
		header.writeBytes(plain, 0, 3).writeByte(0x02 | 0x04 | 0x08 | 0x10).writeBytes(plain, 4, 6);
		header.writeShortLE(3).writeBytes(new byte[] { 1, 2, 3 }); // FEXTRA
		header.writeBytes("value.json\0".getBytes()).writeBytes("a comment\0".getBytes()); // FNAME, FCOMMENT
		CRC32 crc = new CRC32();
		crc.update(BufferKind.toBytes(header));
		header.writeShortLE((int) crc.getValue()); // FHCRC
		header.writeBytes(plain, 10, plain.length - 10);
		byte[] withFields = BufferKind.toBytes(header);
		header.release();
		assertThat(decompress(this.compressor, withFields, CAP)).isEqualTo(original);
		withFields[20] ^= 1; // inside the extra field: the header CRC no longer matches
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> decompress(this.compressor, withFields, CAP))
			.withMessageContaining("header CRC mismatch");
	}

	@Test
	void refusesMemberDeclaringMoreThanTheCapBeforeInflating() {
		byte[] gzip = compress(this.compressor, new byte[1000]);
		ByteBuf in = Unpooled.wrappedBuffer(gzip);
		in.setIntLE(gzip.length - 4, -1); // ISIZE: 4 GiB - 1
		ByteBuf out = Unpooled.buffer(16);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(in, out, CAP))
				.withMessageContaining("gzip")
				.withMessageContaining("declares 4294967295 bytes, more than the maximum decompressed size of " + CAP);
			assertThat(out.capacity()).as("nothing allocated").isEqualTo(16);
		}
		finally {
			in.release();
			out.release();
		}
	}

	@Test
	void refusesBombThatLiesAboutItsSizeAtTheCap() {
		// 256 MiB of zeros deflate to about 250 KB; the trailer claims 100 bytes
		ByteBuf bomb = Unpooled.buffer();
		bomb.writeShort(0x1f8b).writeByte(8).writeByte(0).writeIntLE(0).writeByte(0).writeByte(255);
		Deflater deflater = new Deflater(9, true);
		byte[] zeros = new byte[1 << 20];
		byte[] chunk = new byte[64 * 1024];
		for (int i = 0; i < 256; i++) {
			deflater.setInput(zeros);
			while (!deflater.needsInput()) {
				bomb.writeBytes(chunk, 0, deflater.deflate(chunk));
			}
		}
		deflater.finish();
		while (!deflater.finished()) {
			bomb.writeBytes(chunk, 0, deflater.deflate(chunk));
		}
		deflater.end();
		bomb.writeIntLE(0).writeIntLE(100);
		ByteBuf out = Unpooled.directBuffer(16);
		try {
			assertThat(bomb.readableBytes()).isLessThan(300 * 1024);
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> this.compressor.decompress(bomb, out, CAP))
				.withMessageContaining("gzip")
				.withMessageContaining("inflates to more than the maximum decompressed size of " + CAP);
			assertThat(out.capacity()).as("at most a few steps past the cap allocated").isLessThanOrEqualTo(4 * CAP);
			assertThat(out.writerIndex()).isZero();
		}
		finally {
			bomb.release();
			out.release();
		}
	}

	@Test
	void refusesSeveralMembers() {
		byte[] one = compress(this.compressor, "one".getBytes());
		byte[] two = new byte[one.length * 2];
		System.arraycopy(one, 0, two, 0, one.length);
		System.arraycopy(one, 0, two, one.length, one.length);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> decompress(this.compressor, two, CAP))
			.withMessageContaining("gzip");
	}

	@Test
	void levelIsUsed() {
		byte[] original = Samples.text(new SplittableRandom(4), 50_000);
		assertThat(compress(GzipCompressor.create(9), original).length)
			.isLessThan(compress(GzipCompressor.create(1), original).length);
	}

	@Test
	void refusesLevelOutOfRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> GzipCompressor.create(0)).withMessageContaining("level");
		assertThatIllegalArgumentException().isThrownBy(() -> GzipCompressor.create(10)).withMessageContaining("level");
	}

	@Test
	void hasStableIdAndName() {
		assertThat(this.compressor.id()).isEqualTo(3);
		assertThat(this.compressor.name()).isEqualTo("gzip");
	}

}
