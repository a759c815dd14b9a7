package dev.slipcase.redis.sample.catalogue;

import dev.slipcase.redis.sample.web.NotFoundException;

/**
 * Thrown when the catalogue has no such product or category; answered with a 404 problem whose
 * detail names the valid ids or categories.
 */
public class ProductNotFoundException extends NotFoundException {

	ProductNotFoundException(String message) {
		super(message);
	}

}
