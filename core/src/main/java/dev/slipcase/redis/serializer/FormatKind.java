package dev.slipcase.redis.serializer;

import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.protostuff.ProtostuffFormat;

/** The structured-value formats a type can choose with {@link RedisFormat} or a {@link FormatRouter}. */
public enum FormatKind {

	/** {@link JsonFormat}: readable in {@code redis-cli}, stored without a header when uncompressed. */
	JSON,

	/** {@link ProtostuffFormat}: compact binary, always behind a header. */
	PROTOSTUFF,

	/** {@link ForyFormat}: Apache Fory, compact binary with schema evolution, always behind a header. */
	FORY

}
