package dev.slipcase.redis.serializer.compression;

import io.netty.buffer.ByteBuf;

/**
 * The fields of a Zstandard frame header (RFC 8878, section 3.1.1.1) that decide how a frame may
 * be decompressed: its content size, window size and dictionary id. Read in Java, straight from
 * the buffer, so that a hostile header is refused before any native code or allocation sees it.
 *
 * @param contentSize the decompressed size the frame declares, or {@link #UNKNOWN}; values above
 * {@code Long.MAX_VALUE} read as {@code Long.MAX_VALUE}
 * @param windowSize the memory a streaming decoder needs for back-references
 * @param dictionaryId the id of the dictionary the frame was compressed with, {@code 0} for none
 * @param checksum whether the frame ends with a content checksum
 * @param magicless whether the frame omits the 4-byte magic number (Zstd's "magicless" format,
 * which is how {@link ZstdCompressor} writes: the format header already says "zstd")
 */
record ZstdFrameHeader(long contentSize, long windowSize, long dictionaryId, boolean checksum, boolean magicless) {

	/** The content size of a frame that does not declare one. */
	static final long UNKNOWN = -1;

	private static final int MAGIC = 0xFD2FB528;

	private static final int SKIPPABLE_MAGIC_MASK = 0xFFFFFFF0;

	private static final int SKIPPABLE_MAGIC = 0x184D2A50;

	/** The magic number that starts a standard frame, as its 4 bytes in order. */
	static final byte[] MAGIC_BYTES = { 0x28, (byte) 0xB5, 0x2F, (byte) 0xFD };

	/**
	 * Reads the header at {@code in}'s reader index, without moving it. A frame that starts with
	 * the magic number is a standard frame; any other is read as a magicless one. That is never
	 * ambiguous: the magic number's first byte, read as a frame header descriptor, has the
	 * reserved bit set, which no valid frame has.
	 * @throws org.springframework.data.redis.serializer.SerializationException when the bytes are
	 * not a zstd frame header
	 */
	static ZstdFrameHeader read(ByteBuf in, String compressor) {
		int start = in.readerIndex();
		int readable = in.readableBytes();
		if (readable < 2) {
			throw Failures.decompress(compressor, "truncated: " + readable + " bytes, shorter than a zstd frame header");
		}
		boolean magicless = true;
		if (readable >= 4) {
			int magic = in.getIntLE(start);
			if (magic == MAGIC) {
				magicless = false;
			}
			else if ((magic & SKIPPABLE_MAGIC_MASK) == SKIPPABLE_MAGIC) {
				throw Failures.decompress(compressor, "a skippable frame, not a zstd data frame");
			}
		}
		int headerStart = magicless ? start : start + 4;
		if (start + readable < headerStart + 2) {
			throw Failures.decompress(compressor, "truncated: " + readable + " bytes, shorter than a zstd frame header");
		}
		int descriptor = in.getUnsignedByte(headerStart);
		if ((descriptor & 0x08) != 0) {
			throw Failures.decompress(compressor, "not a zstd frame (reserved bit set in the frame header)");
		}
		int contentSizeFlag = descriptor >>> 6;
		boolean singleSegment = (descriptor & 0x20) != 0;
		boolean checksum = (descriptor & 0x04) != 0;
		int dictionaryIdFlag = descriptor & 0x03;
		int dictionaryIdSize = (dictionaryIdFlag == 3) ? 4 : dictionaryIdFlag;
		int contentSizeSize = (contentSizeFlag == 0) ? (singleSegment ? 1 : 0) : (1 << contentSizeFlag);
		int headerSize = (headerStart - start) + 1 + (singleSegment ? 0 : 1) + dictionaryIdSize + contentSizeSize;
		if (readable < headerSize) {
			throw Failures.decompress(compressor,
					"truncated: " + readable + " bytes, shorter than its zstd frame header of " + headerSize);
		}
		int position = headerStart + 1;
		long windowSize = 0;
		if (!singleSegment) {
			int windowDescriptor = in.getUnsignedByte(position++);
			long windowBase = 1L << (10 + (windowDescriptor >>> 3));
			windowSize = windowBase + (windowBase >>> 3) * (windowDescriptor & 0x07);
		}
		long dictionaryId = switch (dictionaryIdSize) {
			case 1 -> in.getUnsignedByte(position);
			case 2 -> in.getUnsignedShortLE(position);
			case 4 -> in.getUnsignedIntLE(position);
			default -> 0;
		};
		position += dictionaryIdSize;
		long contentSize = switch (contentSizeSize) {
			case 1 -> in.getUnsignedByte(position);
			case 2 -> in.getUnsignedShortLE(position) + 256L;
			case 4 -> in.getUnsignedIntLE(position);
			case 8 -> {
				long size = in.getLongLE(position);
				yield (size < 0) ? Long.MAX_VALUE : size;
			}
			default -> UNKNOWN;
		};
		if (singleSegment) {
			windowSize = contentSize;
		}
		return new ZstdFrameHeader(contentSize, windowSize, dictionaryId, checksum, magicless);
	}

}
