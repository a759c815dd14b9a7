package dev.slipcase.redis.sample.catalogue;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * Thrown when the catalogue has no such product or category; answered with 404.
 */
@ResponseStatus(HttpStatus.NOT_FOUND)
public class ProductNotFoundException extends RuntimeException {

	ProductNotFoundException(String message) {
		super(message);
	}

}
