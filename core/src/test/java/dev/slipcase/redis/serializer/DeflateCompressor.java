package dev.slipcase.redis.serializer;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import dev.slipcase.redis.serializer.compression.Compressor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * A test-only {@link Compressor} on the JDK's raw deflate, so the compression plumbing is tested
 * without the real compressors. Prefixes the decompressed length as 4 bytes so a claim over the
 * cap is refused before memory is allocated, like the real ones.
 */
public final class DeflateCompressor implements Compressor {

	private final int id;

	private final String name;

	public DeflateCompressor(int id, String name) {
		this.id = id;
		this.name = name;
	}

	public DeflateCompressor() {
		this(7, "deflate");
	}

	@Override
	public int id() {
		return this.id;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void compress(ByteBuf in, ByteBuf out) {
		byte[] plain = ByteBufUtil.getBytes(in);
		in.skipBytes(plain.length);
		Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
		try {
			deflater.setInput(plain);
			deflater.finish();
			byte[] chunk = new byte[Math.max(64, plain.length)];
			out.writeInt(plain.length);
			while (!deflater.finished()) {
				int n = deflater.deflate(chunk);
				out.writeBytes(chunk, 0, n);
			}
		}
		finally {
			deflater.end();
		}
	}

	@Override
	public void decompress(ByteBuf in, ByteBuf out, int maxDecompressedSize) {
		if (in.readableBytes() < 4) {
			throw new SerializationException(this.name + ": truncated frame");
		}
		int length = in.readInt();
		if (length < 0 || length > maxDecompressedSize) {
			throw new SerializationException(this.name + ": frame claims " + length + " bytes, over the cap of "
					+ maxDecompressedSize);
		}
		byte[] compressed = ByteBufUtil.getBytes(in);
		in.skipBytes(compressed.length);
		Inflater inflater = new Inflater(true);
		try {
			inflater.setInput(compressed);
			byte[] plain = new byte[length];
			int n = 0;
			while (n < length) {
				int read = inflater.inflate(plain, n, length - n);
				if (read == 0 && (inflater.finished() || inflater.needsInput() || inflater.needsDictionary())) {
					break;
				}
				n += read;
			}
			if (n != length || !inflater.finished()) {
				throw new SerializationException(this.name + ": frame does not decompress to its claimed " + length + " bytes");
			}
			out.writeBytes(plain);
		}
		catch (DataFormatException ex) {
			throw new SerializationException(this.name + ": corrupt frame", ex);
		}
		finally {
			inflater.end();
		}
	}

}
