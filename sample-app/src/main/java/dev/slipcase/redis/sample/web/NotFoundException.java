package dev.slipcase.redis.sample.web;

/**
 * The app has no such thing (product, category, document, namespace); the message says what it
 * has instead. Answered with a 404 problem.
 */
public class NotFoundException extends RuntimeException {

	public NotFoundException(String message) {
		super(message);
	}

}
