/**
 * The app's HTTP error shape: RFC 9457 problem details for every error.
 */
@NullMarked
package dev.slipcase.redis.sample.web;

import org.jspecify.annotations.NullMarked;
