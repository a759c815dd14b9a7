package dev.slipcase.redis.template;

import java.util.concurrent.atomic.AtomicBoolean;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * A value {@link ReactiveValueTemplate#openDownload(String) opened for download}: its length,
 * known from the first round trip, and its content, streamed from a consistent copy of the value
 * once {@link #content()} is subscribed to. The copy is this download's until its content ends
 * (read, failed or cancelled) or {@link #discard()} deletes it; one not read within a minute of
 * opening expires then (its content then fails, saying so), so a download dropped unread costs
 * Redis its copy for a minute at most. Thread-safe.
 */
public final class Download {

	private final ReactiveLargeValueTransfer transfer;

	private final String key;

	private final String temporary;

	private final long length;

	private final boolean extend;

	private final AtomicBoolean taken = new AtomicBoolean();

	/**
	 * @param extend whether the copy's expiry is extended when the content is subscribed to (it
	 * was made to live until then only)
	 */
	Download(ReactiveLargeValueTransfer transfer, String key, String temporary, long length, boolean extend) {
		this.transfer = transfer;
		this.key = key;
		this.temporary = temporary;
		this.length = length;
		this.extend = extend;
	}

	/** The key downloaded. */
	public String key() {
		return this.key;
	}

	/** The value's length in bytes, for a {@code Content-Length} header. */
	public long length() {
		return this.length;
	}

	/**
	 * The value's bytes, as {@link ReactiveValueTemplate#download(String)} emits them: chunks the
	 * subscriber releases (WebFlux does once written), at most the template's window of them read
	 * and not yet released, so a subscriber that holds more than that before releasing any
	 * ({@code DataBufferUtils.join}) waits for itself, with no timeout. Read once: a second
	 * subscription fails with an {@code IllegalStateException}, as does one after
	 * {@link #discard()}.
	 */
	public Flux<DataBuffer> content() {
		return Flux.defer(() -> this.taken.compareAndSet(false, true)
				? this.transfer.content(this.key, this.temporary, this.length, this.extend)
				: Flux.error(new IllegalStateException("The download of '" + this.key + "' was already read or discarded")));
	}

	/** Deletes the copy unread; nothing when its content was subscribed to, which deletes it when it ends. */
	public Mono<Void> discard() {
		return Mono.defer(() -> this.taken.compareAndSet(false, true) ? this.transfer.delete(this.temporary)
				: Mono.empty());
	}

	@Override
	public String toString() {
		return "Download['" + this.key + "', " + this.length + " bytes]";
	}

}
