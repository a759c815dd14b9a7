/**
 * Compression of encoded values: LZ4, Zstd (with trained dictionaries for small values) and
 * gzip, each behind {@link dev.slipcase.redis.serializer.compression.Compressor}, every
 * decompression capped in size.
 */
@NullMarked
package dev.slipcase.redis.serializer.compression;

import org.jspecify.annotations.NullMarked;
