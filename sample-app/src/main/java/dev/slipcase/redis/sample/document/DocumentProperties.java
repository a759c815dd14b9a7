package dev.slipcase.redis.sample.document;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * {@code sample.documents.*}: the largest document an upload may store.
 *
 * @param maxSize the largest document accepted
 */
@ConfigurationProperties("sample.documents")
public record DocumentProperties(DataSize maxSize) {

	public DocumentProperties {
		if (maxSize == null || maxSize.toBytes() < 1) {
			throw new IllegalArgumentException("sample.documents.max-size must be positive, was " + maxSize);
		}
	}

}
