package dev.slipcase.redis.template;

import java.util.concurrent.atomic.AtomicBoolean;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * A value {@link ReactiveValueTemplate#openDownload(String) opened for download}: its length,
 * known from the first round trip, and its content, streamed from a consistent copy of the value
 * once {@link #content()} is subscribed to. The copy is this download's until its content ends
 * (read, failed or cancelled) or {@link #discard()} deletes it; one never read expires an hour
 * after it was made. Thread-safe.
 */
public final class Download {

	private final ReactiveLargeValueTransfer transfer;

	private final String key;

	private final String temporary;

	private final long length;

	private final AtomicBoolean taken = new AtomicBoolean();

	Download(ReactiveLargeValueTransfer transfer, String key, String temporary, long length) {
		this.transfer = transfer;
		this.key = key;
		this.temporary = temporary;
		this.length = length;
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
	 * and not yet released. Read once: a second subscription fails with an
	 * {@code IllegalStateException}, as does one after {@link #discard()}.
	 */
	public Flux<DataBuffer> content() {
		return Flux.defer(() -> this.taken.compareAndSet(false, true)
				? this.transfer.content(this.key, this.temporary, this.length)
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
