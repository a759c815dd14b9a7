package dev.slipcase.redis.serializer.format;

/**
 * A {@link ValueFormat} with a stable id in the Slipcase format header, so that a
 * {@link SelfDescribingFormat} can say in each stored value which format wrote it and dispatch on
 * read.
 * <p>
 * A tagged format writes only its body: the header, when one is needed, is written by
 * {@link SelfDescribingFormat}. Text formats (UTF-8 strings, JSON, decimal numbers) are stored
 * without a header when uncompressed, so they stay readable in {@code redis-cli} and usable by
 * {@code INCRBY}; their bodies never start with a header byte (see {@link FormatHeader}).
 *
 * @param <T> the type of value
 */
public interface TaggedFormat<T> extends ValueFormat<T> {

	/** The format's id in the header (see {@link FormatHeader}), between 1 and 255. */
	int formatId();

	/**
	 * Whether the body is UTF-8 text that never starts with a byte in {@code 0xF5..0xFF}, and is
	 * therefore stored without a header when not compressed.
	 */
	boolean isText();

}
