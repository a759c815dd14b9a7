package dev.slipcase.redis.sample.web;

/**
 * The request cannot run now because another one holds what it needs; the message says what.
 * Answered with a 409 problem.
 */
public class ConflictException extends RuntimeException {

	public ConflictException(String message) {
		super(message);
	}

}
