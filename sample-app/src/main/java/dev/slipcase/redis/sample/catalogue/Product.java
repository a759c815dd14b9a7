package dev.slipcase.redis.sample.catalogue;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A product of the catalogue, cached in the {@code products} cache as JSON (the default format;
 * allowed under the type id {@code product} in {@code application.yml}).
 *
 * @param id the product's id
 * @param name its name
 * @param category the category it is listed in
 * @param price its price
 * @param addedAt when it was added to the catalogue
 * @param availableFrom the first day it can be ordered
 * @param description a short description
 */
public record Product(long id, String name, String category, BigDecimal price, Instant addedAt,
		LocalDate availableFrom, String description) {

}
