package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import io.lettuce.core.resource.ClientResources;

/**
 * A Lettuce client of default resources and one of {@link WriteCoalescing}'s, for tests that run on
 * both, each recording the type of every command it dispatches. One per test class; shut down by it.
 */
final class RecordingClients {

	/** Which of the two clients a test runs on. */
	enum Kind {

		/** Lettuce's own resources and command handler: several commands go out one by one. */
		DEFAULT_RESOURCES,

		/** WriteCoalescing's resources, whose channels read several replies as one command's. */
		SLIPCASE_RESOURCES

	}

	private final List<String> dispatched = new CopyOnWriteArrayList<>();

	private final RedisClient defaultClient = RedisClient.create();

	private final ClientResources slipcaseResources = WriteCoalescing.configure(ClientResources.builder()).build();

	private final RedisClient slipcaseClient = RedisClient.create(this.slipcaseResources);

	RecordingClients() {
		CommandListener listener = new CommandListener() {

			@Override
			public void commandStarted(CommandStartedEvent event) {
				RecordingClients.this.dispatched.add(event.getCommand().getType().toString());
			}

		};
		this.defaultClient.addListener(listener);
		this.slipcaseClient.addListener(listener);
	}

	RedisClient client(Kind kind) {
		return (kind == Kind.SLIPCASE_RESOURCES) ? this.slipcaseClient : this.defaultClient;
	}

	/** The types of the commands both clients dispatched, in order; clear it to start counting. */
	List<String> dispatched() {
		return this.dispatched;
	}

	void shutdown() {
		this.defaultClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.slipcaseClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.slipcaseResources.shutdown(0, 2, TimeUnit.SECONDS);
	}

}
