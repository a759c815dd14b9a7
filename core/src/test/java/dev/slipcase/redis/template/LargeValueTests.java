package dev.slipcase.redis.template;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ValueTemplate#upload} and {@link ValueTemplate#download}: values of megabytes
 * moved in chunks, with heap use bounded by the chunk size, atomic for readers, and a failed
 * upload leaving the old value in place.
 */
@ExtendWith(RedisExtension.class)
class LargeValueTests {

	private static final int CHUNK = 64 * 1024;

	private static RedisServer redis;

	private static RedisClient client;

	private static ValueTemplate<String> template;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		template = ValueTemplate.create(client, RedisURI.create(server.endpoint().uri()), Utf8TestFormat.INSTANCE)
			.withChunkSize(CHUNK);
	}

	@AfterAll
	static void shutdown() {
		template.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	@Test
	void uploadThenDownloadReturnsEveryByte() throws IOException {
		byte[] value = randomBytes(3 * 1024 * 1024 + 17);
		template.upload("big", new ByteArrayInputStream(value), value.length);
		assertThat(redis.command("STRLEN", "big")).isEqualTo((long) value.length);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(template.download("big", out)).isEqualTo(value.length);
		assertThat(out.toByteArray()).isEqualTo(value);
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
		assertThat(redis.command("PTTL", "big")).as("no expiry").isEqualTo(-1L);
	}

	@Test
	void emptyValuesAndMissingKeys() throws IOException {
		template.upload("empty", InputStream.nullInputStream(), 0);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(template.download("empty", out)).isZero();
		assertThat(template.download("missing", out)).isEqualTo(-1);
		assertThat(out.size()).isZero();
	}

	@Test
	void downloadingAKeyThatIsNotAStringFailsAndLeavesNoTemporaryKey() {
		template.hset("hash", "f", "v");
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> template.download("hash", new ByteArrayOutputStream()))
			.withMessageContaining("WRONGTYPE");
		assertThat(redis.command("DBSIZE")).isEqualTo(1L);
	}

	@Test
	void aFailedUploadLeavesTheOldValueAndNoTemporaryKey() {
		template.set("doc", "old value");
		InputStream failing = new InputStream() {
			private int served;

			@Override
			public int read() throws IOException {
				if (++this.served > 200_000) {
					throw new IOException("disk on fire");
				}
				return 'x';
			}
		};
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> template.upload("doc", failing, 1_000_000))
			.withMessage("disk on fire");
		assertThat(template.get("doc")).isEqualTo("old value");
		assertThat(redis.command("DBSIZE")).isEqualTo(1L);
	}

	@Test
	void aStreamShorterThanAnnouncedFailsTheUpload() {
		template.set("doc", "old value");
		assertThatExceptionOfType(EOFException.class)
			.isThrownBy(() -> template.upload("doc", new ByteArrayInputStream(new byte[100_000]), 100_001))
			.withMessageContaining("100000 of the 100001");
		assertThat(template.get("doc")).isEqualTo("old value");
		assertThat(redis.command("DBSIZE")).isEqualTo(1L);
	}

	@Test
	void readersSeeTheOldOrTheNewValueNeverAPart() throws Exception {
		byte[] oldValue = filled(2 * 1024 * 1024, (byte) 'a');
		byte[] newValue = filled(2 * 1024 * 1024 + 5, (byte) 'b');
		template.upload("doc", new ByteArrayInputStream(oldValue), oldValue.length);
		AtomicBoolean uploading = new AtomicBoolean(true);
		CompletableFuture<Void> upload = CompletableFuture.runAsync(() -> {
			try {
				for (int i = 0; i < 3; i++) {
					byte[] value = (i % 2 == 0) ? newValue : oldValue;
					template.upload("doc", new ByteArrayInputStream(value), value.length);
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
			finally {
				uploading.set(false);
			}
		});
		List<Integer> seen = new ArrayList<>();
		while (uploading.get()) {
			try (ValueLease lease = template.lease("doc")) {
				assertThat(lease).isNotNull();
				byte[] read = new byte[lease.size()];
				lease.content().readBytes(read);
				assertThat(read).satisfiesAnyOf((bytes) -> assertThat(bytes).isEqualTo(oldValue),
						(bytes) -> assertThat(bytes).isEqualTo(newValue));
				seen.add(read.length);
			}
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			template.download("doc", out);
			assertThat(out.toByteArray()).satisfiesAnyOf((bytes) -> assertThat(bytes).isEqualTo(oldValue),
					(bytes) -> assertThat(bytes).isEqualTo(newValue));
		}
		upload.join();
		assertThat(seen).isNotEmpty();
	}

	@Test
	void heapUseOfTheCallingThreadIsBoundedByTheChunkNotTheValue() throws Exception {
		long size = 32L * 1024 * 1024;
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long thread = Thread.currentThread().getId();
		long before = threads.getThreadAllocatedBytes(thread);
		template.upload("huge", new PatternStream(size), size);
		DigestStream digest = new DigestStream();
		assertThat(template.download("huge", digest)).isEqualTo(size);
		long allocated = threads.getThreadAllocatedBytes(thread) - before;
		assertThat(digest.count).isEqualTo(size);
		assertThat(digest.digest()).isEqualTo(digestOf(new PatternStream(size)));
		// 64 MB moved through this thread; one byte[] of the value alone would be 32 MB. What is
		// allocated is per chunk (commands, and the paranoid leak detector's access records)
		assertThat(allocated).as("bytes allocated by the calling thread").isLessThan(size / 2);
	}

	private static byte[] randomBytes(int size) {
		byte[] bytes = new byte[size];
		new Random(42).nextBytes(bytes);
		return bytes;
	}

	private static byte[] filled(int size, byte value) {
		byte[] bytes = new byte[size];
		Arrays.fill(bytes, value);
		return bytes;
	}

	private static byte[] digestOf(InputStream in) throws Exception {
		DigestStream digest = new DigestStream();
		in.transferTo(digest);
		return digest.digest();
	}

	/** A stream of {@code size} bytes that are a function of their position. */
	private static final class PatternStream extends InputStream {

		private final long size;

		private long position;

		PatternStream(long size) {
			this.size = size;
		}

		@Override
		public int read() {
			return (this.position < this.size) ? (int) (this.position++ * 31 % 251) : -1;
		}

		@Override
		public int read(byte[] b, int off, int len) {
			if (this.position >= this.size) {
				return -1;
			}
			int n = (int) Math.min(len, this.size - this.position);
			for (int i = 0; i < n; i++) {
				b[off + i] = (byte) (this.position++ * 31 % 251);
			}
			return n;
		}

	}

	/** Counts and digests what is written, keeping none of it. */
	private static final class DigestStream extends OutputStream {

		private final MessageDigest sha;

		private long count;

		DigestStream() {
			try {
				this.sha = MessageDigest.getInstance("SHA-256");
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		@Override
		public void write(int b) {
			this.sha.update((byte) b);
			this.count++;
		}

		@Override
		public void write(byte[] b, int off, int len) {
			this.sha.update(b, off, len);
			this.count += len;
		}

		byte[] digest() {
			return this.sha.digest();
		}

	}

}
