package dev.slipcase.redis.lettuce;

import dev.slipcase.redis.codec.CountsBytesRead;
import dev.slipcase.redis.metrics.ObservedCall;
import io.lettuce.core.output.CommandOutput;
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

	@Override
	public void beforeCompletion(@Nullable Throwable failure) {
		long bytesRead = (failure == null && this.output instanceof CountsBytesRead read) ? read.bytesRead() : -1;
		this.call.stop(failure, bytesRead);
	}

}
