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
 */
record ZstdFrameHeader(long contentSize, long windowSize, long dictionaryId, boolean checksum) {

	/** The content size of a frame that does not declare one. */
	static final long UNKNOWN = -1;

	private static final int MAGIC = 0xFD2FB528;

	private static final int SKIPPABLE_MAGIC_MASK = 0xFFFFFFF0;

	private static final int SKIPPABLE_MAGIC = 0x184D2A50;

	/**
	 * Reads the header at {@code in}'s reader index, without moving it.
	 * @throws org.springframework.data.redis.serializer.SerializationException when the bytes are
	 * not a zstd frame header
	 */
	static ZstdFrameHeader read(ByteBuf in, String compressor) {
		int start = in.readerIndex();
		int readable = in.readableBytes();
		if (readable < 5) {
			throw Failures.decompress(compressor, "truncated: " + readable + " bytes, shorter than a zstd frame header");
		}
		int magic = in.getIntLE(start);
		if (magic != MAGIC) {
			String what = ((magic & SKIPPABLE_MAGIC_MASK) == SKIPPABLE_MAGIC) ? "a skippable frame, not a zstd data frame"
					: "not a zstd frame (magic number 0x" + Integer.toHexString(magic) + ")";
			throw Failures.decompress(compressor, what);
		}
		int descriptor = in.getUnsignedByte(start + 4);
		if ((descriptor & 0x08) != 0) {
			throw Failures.decompress(compressor, "corrupt zstd frame header (reserved bit set)");
		}
		int contentSizeFlag = descriptor >>> 6;
		boolean singleSegment = (descriptor & 0x20) != 0;
		boolean checksum = (descriptor & 0x04) != 0;
		int dictionaryIdFlag = descriptor & 0x03;
		int dictionaryIdSize = (dictionaryIdFlag == 3) ? 4 : dictionaryIdFlag;
		int contentSizeSize = (contentSizeFlag == 0) ? (singleSegment ? 1 : 0) : (1 << contentSizeFlag);
		int headerSize = 5 + (singleSegment ? 0 : 1) + dictionaryIdSize + contentSizeSize;
		if (readable < headerSize) {
			throw Failures.decompress(compressor,
					"truncated: " + readable + " bytes, shorter than its zstd frame header of " + headerSize);
		}
		int position = start + 5;
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
		return new ZstdFrameHeader(contentSize, windowSize, dictionaryId, checksum);
	}

}
