package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OpeningConnection} where no connection opens, so no server is needed: the
 * order in which commands reach an open connection is tested against a real server in
 * {@link CommandOrderTests}.
 */
class OpeningConnectionTests {

	@Test
	void commandsSentBeforeAndAfterTheOpenFailedFailWithItsCause() {
		IllegalStateException refused = new IllegalStateException("refused");
		CompletableFuture<StatefulConnection<String, String>> opening = new CompletableFuture<>();
		OpeningConnection<String, String> connection = new OpeningConnection<>(opening);
		AsyncCommand<String, String, String> before = ping();
		connection.send(before);
		assertThat(before).isNotDone();
		opening.completeExceptionally(refused);
		AsyncCommand<String, String, String> after = ping();
		AsyncCommand<String, String, String> alsoAfter = ping();
		connection.send(after);
		connection.send(List.of(alsoAfter));
		assertThat(List.of(before, after, alsoAfter)).allSatisfy((command) -> assertThat(command)
			.failsWithin(Duration.ZERO)
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.isSameAs(refused));
		assertThat(connection).isCompletedExceptionally();
	}

	/** A command completed while the waiting ones are failed may send another at once: it is not lost. */
	@Test
	void aCommandSentByOneThatFailedWhenTheOpenFailedFailsToo() {
		IllegalStateException refused = new IllegalStateException("refused");
		CompletableFuture<StatefulConnection<String, String>> opening = new CompletableFuture<>();
		OpeningConnection<String, String> connection = new OpeningConnection<>(opening);
		AsyncCommand<String, String, String> first = ping();
		AsyncCommand<String, String, String> retry = ping();
		first.whenComplete((reply, failure) -> connection.send(retry));
		connection.send(first);
		opening.completeExceptionally(refused);
		assertThat(retry).failsWithin(Duration.ZERO)
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.isSameAs(refused);
	}

	private static AsyncCommand<String, String, String> ping() {
		return new AsyncCommand<>(new Command<>(CommandType.PING, new StatusOutput<>(StringCodec.UTF8),
				new CommandArgs<>(StringCodec.UTF8)));
	}

}
