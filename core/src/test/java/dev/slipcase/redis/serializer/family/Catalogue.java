package dev.slipcase.redis.serializer.family;

import java.util.List;

import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.RedisFormat;

/** A type that chooses Protostuff and zstd with its annotation. */
@RedisFormat(value = FormatKind.PROTOSTUFF, compression = "zstd", minCompressSize = 16)
public record Catalogue(String name, List<String> products) {
}
