package dev.slipcase.redis.template;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CommandChannel;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * Moves values of any size between streams and Redis in chunks, so heap use is bounded by the
 * chunk size, never the value size.
 * <p>
 * An upload writes the chunks into a temporary key ({@code SET}, then {@code APPEND}) and, once
 * every byte is there, replaces the real key with an atomic {@code RENAME} (and {@code PERSIST}) in
 * one script: readers see the old value or the new one, never a part; a failed upload deletes
 * the temporary key and leaves the old value as it was. A download first copies the value
 * atomically to a temporary key ({@code COPY}, Redis 6.2+) and reads that copy with
 * {@code GETRANGE}, so a concurrent upload cannot mix two versions into one download. Temporary
 * keys share the key's hash tag (same cluster slot) and expire after an hour should the process
 * die half-way.
 */
final class LargeValueTransfer {

	private final AsyncValueTemplate<?> operations;

	private final CommandChannel<String, EncodedValue> channel;

	private final int chunkSize;

	LargeValueTransfer(AsyncValueTemplate<?> operations, int chunkSize) {
		this.operations = operations;
		this.channel = operations.channel();
		this.chunkSize = chunkSize;
	}

	void upload(String key, InputStream in, long length) throws IOException {
		String temporary = LargeValueKeys.temporaryKey(key, this.operations.cluster);
		long written = 0;
		try {
			do {
				int size = (int) Math.min(this.chunkSize, length - written);
				EncodedValue chunk = readChunk(in, size, written, length);
				long reply = this.channel.await(this.operations.writeRaw(temporary, chunk,
						(written == 0) ? LargeValueKeys.TEMPORARY_TTL : null), "upload", key);
				written += size;
				if (reply != written) {
					throw new IllegalStateException("Temporary key '" + temporary + "' holds " + reply
							+ " bytes after writing " + written + ": it was changed by someone else");
				}
			}
			while (written < length);
			this.channel.await(LargeValueKeys.replace(this.channel, key, temporary), "upload", key);
		}
		catch (IOException | RuntimeException | Error ex) {
			deleteQuietly(temporary, ex);
			throw ex;
		}
	}

	/**
	 * The next {@code size} bytes of {@code in}, in a buffer of the template's allocator. The caller
	 * is responsible for releasing the returned value (the command that writes it does).
	 */
	private EncodedValue readChunk(InputStream in, int size, long offset, long length) throws IOException {
		ByteBuf chunk = this.operations.allocator.heapBuffer(size);
		try {
			while (chunk.readableBytes() < size) {
				int read = chunk.writeBytes(in, size - chunk.readableBytes());
				if (read < 0) {
					throw new EOFException("The stream ended after " + (offset + chunk.readableBytes()) + " of the "
							+ length + " bytes announced");
				}
			}
			return EncodedValue.wrap(chunk);
		}
		catch (IOException | RuntimeException ex) {
			chunk.release();
			throw ex;
		}
	}

	long download(String key, OutputStream out) throws IOException {
		String temporary = LargeValueKeys.temporaryKey(key, this.operations.cluster);
		try {
			long length = this.channel.await(LargeValueKeys.snapshot(this.channel, key, temporary), "download", key);
			for (long offset = 0; offset < length; offset += this.chunkSize) {
				long end = Math.min(offset + this.chunkSize, length) - 1;
				try (ValueLease chunk = this.channel.await(this.operations.leaseRange(temporary, offset, end),
						"download", key)) {
					if (chunk == null || chunk.size() != end - offset + 1) {
						throw LargeValueKeys.changed(key, temporary);
					}
					chunk.writeTo(out);
				}
			}
			return length;
		}
		finally {
			// also when the snapshot script failed half-way (a key that is not a string, say)
			deleteQuietly(temporary, null);
		}
	}

	private void deleteQuietly(String temporary, @Nullable Throwable failure) {
		try {
			this.channel.await(this.operations.delete(temporary), "delete", temporary);
		}
		catch (RuntimeException ex) {
			if (failure != null) {
				failure.addSuppressed(ex);
			}
		}
	}

}
