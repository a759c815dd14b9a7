package dev.slipcase.redis.lettuce;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.slipcase.redis.test.Wait;
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
 * Tests for {@link OrderedDispatcher} where no connection opens, so no server is needed: the
 * order in which commands reach an open connection is tested against a real server in
 * {@link CommandOrderTests}.
 */
class OrderedDispatcherTests {

	@Test
	void commandsSentBeforeAndAfterTheOpenFailedFailWithItsCause() {
		IllegalStateException refused = new IllegalStateException("refused");
		CompletableFuture<StatefulConnection<String, String>> opening = new CompletableFuture<>();
		OrderedDispatcher<String, String> connection = new OrderedDispatcher<>(opening);
		AsyncCommand<String, String, String> before = ping();
		connection.send(before);
		assertThat(before).isNotDone();
		opening.completeExceptionally(refused);
		AsyncCommand<String, String, String> after = ping();
		AsyncCommand<String, String, String> alsoAfter = ping();
		connection.send(after);
		connection.send(List.of(alsoAfter));
		assertThat(List.of(before, after, alsoAfter)).allSatisfy((command) -> assertFailedWith(command, refused));
		assertThat(connection).isCompletedExceptionally();
	}

	/** A command completed while the waiting ones are failed may send another at once: it is not lost. */
	@Test
	void aCommandSentByOneThatFailedWhenTheOpenFailedFailsToo() {
		IllegalStateException refused = new IllegalStateException("refused");
		CompletableFuture<StatefulConnection<String, String>> opening = new CompletableFuture<>();
		OrderedDispatcher<String, String> connection = new OrderedDispatcher<>(opening);
		AsyncCommand<String, String, String> first = ping();
		AsyncCommand<String, String, String> retry = ping();
		first.whenComplete((reply, failure) -> connection.send(retry));
		connection.send(first);
		opening.completeExceptionally(refused);
		assertFailedWith(retry, refused);
	}

	/**
	 * The waiting commands are dispatched with no lock held: a dispatch that takes a while (on a
	 * cluster, Lettuce may wait for a node's connection to open) held up every sender, and the
	 * event loop the dispatch was waiting for could be one of them.
	 */
	@Test
	void aSenderDoesNotWaitForTheDispatchOfTheCommandsThatWaited() throws Exception {
		CountDownLatch secondSent = new CountDownLatch(1);
		List<Object> dispatched = new CopyOnWriteArrayList<>();
		StatefulConnection<String, String> slow = dispatching((command) -> {
			dispatched.add(command);
			if (dispatched.size() == 1) {
				// the first dispatch lasts until the other thread's send has returned
				try {
					secondSent.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		});
		CompletableFuture<StatefulConnection<String, String>> opening = new CompletableFuture<>();
		OrderedDispatcher<String, String> connection = new OrderedDispatcher<>(opening);
		AsyncCommand<String, String, String> first = ping();
		AsyncCommand<String, String, String> second = ping();
		connection.send(first);
		// threads of their own: on two cores the common pool has one, which the settling would hold
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			CompletableFuture<Void> settling = CompletableFuture.runAsync(() -> opening.complete(slow), threads);
			Wait.until(Duration.ofSeconds(10), "the first dispatch", () -> !dispatched.isEmpty());
			CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> connection.send(second), threads);
			sending.get(5, TimeUnit.SECONDS);
			secondSent.countDown();
			settling.get(10, TimeUnit.SECONDS);
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(dispatched).containsExactly(first, second);
		assertThat(connection).isCompletedWithValue(slow);
	}

	private static void assertFailedWith(AsyncCommand<?, ?, ?> command, Throwable cause) {
		assertThat(command).failsWithin(Duration.ZERO)
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.isSameAs(cause);
	}

	/** A connection that only takes commands, each handed to {@code dispatch}. */
	@SuppressWarnings("unchecked")
	private static StatefulConnection<String, String> dispatching(Consumer<Object> dispatch) {
		return (StatefulConnection<String, String>) Proxy.newProxyInstance(OrderedDispatcherTests.class.getClassLoader(),
				new Class<?>[] { StatefulConnection.class }, (proxy, method, args) -> {
					if (method.getName().equals("dispatch")) {
						if (args[0] instanceof Collection<?> commands) {
							commands.forEach(dispatch);
						}
						else {
							dispatch.accept(args[0]);
						}
						return args[0];
					}
					throw new UnsupportedOperationException(method.getName());
				});
	}

	private static AsyncCommand<String, String, String> ping() {
		return new AsyncCommand<>(new Command<>(CommandType.PING, new StatusOutput<>(StringCodec.UTF8),
				new CommandArgs<>(StringCodec.UTF8)));
	}

}
