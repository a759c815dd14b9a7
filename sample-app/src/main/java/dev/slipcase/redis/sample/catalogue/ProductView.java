package dev.slipcase.redis.sample.catalogue;

import java.util.Map;

/**
 * What {@code GET /products/{id}} answers: the (cached) product, its view count after this view
 * and its feature flags, both from sharded namespaces.
 *
 * @param product the product
 * @param views how many times it has been viewed, this view included
 * @param flags its feature flags, by name
 */
public record ProductView(Product product, long views, Map<String, Boolean> flags) {

}
