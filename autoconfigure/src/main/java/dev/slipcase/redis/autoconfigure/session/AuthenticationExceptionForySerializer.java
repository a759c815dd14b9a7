package dev.slipcase.redis.autoconfigure.session;

import java.util.function.Function;

import org.apache.fory.config.Config;
import org.apache.fory.context.ReadContext;
import org.apache.fory.context.WriteContext;
import org.apache.fory.serializer.Serializer;

import org.springframework.security.core.AuthenticationException;

/**
 * Writes a Spring Security authentication failure kept in a session (the last login's error) as
 * its message alone, as Spring Security's own Jackson mix-in does: never its
 * {@code authenticationRequest}, which holds the password the failed login submitted, nor its
 * stack trace or cause. Read back as a new exception of the same class with that message.
 * Stateless apart from the constructor; one per thread's Fory.
 *
 * @param <E> the exception class
 */
final class AuthenticationExceptionForySerializer<E extends AuthenticationException> extends Serializer<E> {

	private final Function<String, E> create;

	AuthenticationExceptionForySerializer(Config config, Class<E> type, Function<String, E> create) {
		super(config, type);
		this.create = create;
	}

	@Override
	public void write(WriteContext context, E value) {
		String message = value.getMessage();
		context.getBuffer().writeBoolean(message != null);
		if (message != null) {
			context.writeString(message);
		}
	}

	@Override
	public E read(ReadContext context) {
		return this.create.apply(context.getBuffer().readBoolean() ? context.readString() : null);
	}

}
