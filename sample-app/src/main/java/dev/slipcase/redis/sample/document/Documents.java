package dev.slipcase.redis.sample.document;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import dev.slipcase.redis.serializer.BytesFormat;
import dev.slipcase.redis.template.ValueLease;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.template.ValueTemplates;

import org.springframework.stereotype.Service;

/**
 * Large documents stored as raw bytes at {@code documents:<name>}, read through a
 * {@link ValueLease} (a pooled buffer, no {@code byte[]}) and written from a stream in chunks.
 * Uses the starter's {@link ValueTemplates} bean.
 */
@Service
public class Documents {

	/** The key prefix of documents. */
	public static final String PREFIX = "documents:";

	/** The name of the document seeded at start-up, a price list of a few hundred KB. */
	public static final String PRICE_LIST = "price-list";

	private final ValueTemplates templates;

	private final ValueTemplate<byte[]> bytes;

	Documents(ValueTemplates templates) {
		this.templates = templates;
		this.bytes = templates.withFormat(BytesFormat.INSTANCE);
	}

	/**
	 * Writes the document straight from the leased buffer to the stream {@code out} opens for
	 * its size; the lease is closed (its buffer released) before this method returns.
	 * @return whether there is such a document
	 */
	public boolean streamTo(String name, SizedOutput out) throws IOException {
		try (ValueLease lease = this.templates.lease(key(name))) {
			if (lease == null) {
				return false;
			}
			lease.writeTo(out.open(lease.size()));
			return true;
		}
	}

	/**
	 * Stores exactly {@code length} bytes of {@code in} as the document, in chunks; readers see
	 * the old document until the new one is complete.
	 */
	public void upload(String name, InputStream in, long length) throws IOException {
		this.bytes.upload(key(name), in, length);
	}

	/** Stores {@code content} as the document, unless there is one already. */
	public boolean storeIfAbsent(String name, byte[] content) {
		return this.bytes.setIfAbsent(key(name), content, null);
	}

	/** The key of a document. */
	public static String key(String name) {
		return PREFIX + name;
	}

	/** Where a document goes once its size is known. */
	@FunctionalInterface
	public interface SizedOutput {

		/** The stream to write {@code size} bytes to; not closed by the caller. */
		OutputStream open(int size) throws IOException;

	}

}
