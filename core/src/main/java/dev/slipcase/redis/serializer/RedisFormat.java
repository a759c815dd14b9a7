package dev.slipcase.redis.serializer;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.slipcase.redis.serializer.format.SelfDescribingFormat;

/**
 * Chooses the format a type's values are written in by a {@link FormatRouter}'s serializers, for
 * instance small types in JSON and big ones in Protostuff compressed with Zstd:
 * <pre class="code">
 * &#64;RedisFormat(value = FormatKind.PROTOSTUFF, compression = "zstd")
 * public record Catalogue(List&lt;Product&gt; products) { }
 * </pre>
 * Changing the annotation changes only how new values are written: the router's serializers read
 * every format and compressor they know by the value's header, so values written before the
 * change stay readable. A registration in code ({@link FormatRouter.Builder#register}) takes
 * precedence over the annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RedisFormat {

	/** The format new values are written in. */
	FormatKind value();

	/**
	 * The name of the compressor new values are compressed with ({@code "zstd"}, {@code "lz4"},
	 * {@code "gzip"}, as registered with the router); empty for none.
	 */
	String compression() default "";

	/** The smallest encoded size, in bytes, that is compressed. */
	int minCompressSize() default SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE;

}
