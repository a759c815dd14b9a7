/**
 * Benchmarks and stored-size figures of Slipcase's compressors (LZ4, Zstd with and without a
 * trained dictionary, gzip) on the shared payloads serialized as JSON.
 */
@NullMarked
package dev.slipcase.redis.serializer.compression;

import org.jspecify.annotations.NullMarked;
