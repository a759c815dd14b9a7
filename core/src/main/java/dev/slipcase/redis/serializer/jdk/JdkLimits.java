package dev.slipcase.redis.serializer.jdk;

import org.springframework.util.Assert;

/**
 * How much of a JDK-serialized value is read before it is refused: how deeply objects nest, how
 * many objects and references it holds (and so how far its shared parts may expand, counted at
 * each place they are reached, and how many keys a hash table hashes), and how many bytes it has.
 * An array is also refused when it claims more elements than the value has bytes left, and arrays
 * together when they claim more than twice its bytes, so that no length field allocates more than
 * the value could fill. Immutable.
 *
 * @param maxDepth the deepest nesting of objects, from 1 for the value itself
 * @param maxReferences the most objects and back-references the value may hold
 * @param maxBytes the longest value, in bytes
 */
public record JdkLimits(int maxDepth, long maxReferences, int maxBytes) {

	/** Depth 20, 10,000 objects and references, 8 MiB. */
	public static final JdkLimits DEFAULTS = new JdkLimits(20, 10_000, 8 * 1024 * 1024);

	/** Limits; each must be positive. */
	public JdkLimits {
		Assert.isTrue(maxDepth > 0, "maxDepth must be positive");
		Assert.isTrue(maxReferences > 0, "maxReferences must be positive");
		Assert.isTrue(maxBytes > 0, "maxBytes must be positive");
	}

}
