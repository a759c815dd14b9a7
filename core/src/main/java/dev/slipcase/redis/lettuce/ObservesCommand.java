package dev.slipcase.redis.lettuce;

import dev.slipcase.redis.codec.CountsBytesRead;
import dev.slipcase.redis.metrics.ObservedCall;
import dev.slipcase.redis.metrics.SlipcaseObservationContext;
import dev.slipcase.redis.metrics.SlipcaseObservationDocumentation;
import io.lettuce.core.output.CommandOutput;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Stops a command's observation before its caller wakes up: a success, with the bytes its output
 * read when it {@linkplain CountsBytesRead counts them}, or the command's failure. Holds no buffer.
 */
public final class ObservesCommand implements CommandStep {

	private final ObservedCall call;

	private final CommandOutput<?, ?, ?> output;

	/**
	 * Stops {@code call} when the command whose reply {@code output} reads ends.
	 * @param call the started observation, never {@code null}
	 * @param output the command's own output, never {@code null}
	 */
	public ObservesCommand(ObservedCall call, CommandOutput<?, ?, ?> output) {
		this.call = call;
		this.output = output;
	}

	/**
	 * Hands {@code command} to {@code sink}, observed in {@code registry} as one
	 * {@code slipcase.redis.command} observation: current while Lettuce dispatches the command, so
	 * that Lettuce's own command observation nests under it, and stopped when it completes.
	 * @param format the name of the values' format, for the observation
	 * @return {@code command}
	 */
	@SuppressWarnings("try")
	public static <K, V, T> SlipcaseCommand<K, V, T> submit(CommandSink<K, V> sink, SlipcaseCommand<K, V, T> command,
			ObservationRegistry registry, String format) {
		ObservedCall call = SlipcaseObservationDocumentation.COMMAND.start(registry, command.getType().toString(),
				SlipcaseObservationContext.NO_NAMESPACE, format);
		call.storedBytes(command.sentBytes());
		command.with(new ObservesCommand(call, command.replyOutput()));
		try (Observation.Scope scope = call.openScope()) {
			return sink.submit(command);
		}
		catch (RuntimeException ex) {
			call.stop(ex);
			throw ex;
		}
	}

	@Override
	public void beforeCompletion(@Nullable Throwable failure) {
		long bytesRead = (failure == null && this.output instanceof CountsBytesRead read) ? read.bytesRead() : -1;
		this.call.stop(failure, bytesRead);
	}

}
