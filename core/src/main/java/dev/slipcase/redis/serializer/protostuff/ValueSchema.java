package dev.slipcase.redis.serializer.protostuff;

import java.lang.reflect.Type;

import io.protostuff.Schema;

import org.springframework.util.Assert;

/**
 * The protostuff schema of a Java type, records included: records, concrete classes (through
 * protostuff's {@code RuntimeSchema}), and collections, maps and scalars (wrapped as field 1 of a
 * root message).
 * <p>
 * Reading is two-step because records cannot be filled in after construction: merge into
 * {@link #newHolder()} with {@link #schema()}, then {@link #finish} the holder into the value.
 * Immutable and thread-safe.
 *
 * @param <T> the type of value
 */
public final class ValueSchema<T> {

	private final Schema<Object> schema;

	private final Type type;

	private ValueSchema(Schema<Object> schema, Type type) {
		this.schema = schema;
		this.type = type;
	}

	/**
	 * The schema of {@code type}; built once per type.
	 * @throws IllegalArgumentException when the type (or a type it contains) cannot be handled,
	 * saying which and why
	 */
	public static <T> ValueSchema<T> of(Type type) {
		Assert.notNull(type, "type must not be null");
		return new ValueSchema<>(Schemas.root(type), type);
	}

	/** The root message schema: {@code writeTo} takes the value, {@code mergeFrom} a holder. */
	public Schema<Object> schema() {
		return this.schema;
	}

	/** A new, empty holder to merge a value into. */
	public Object newHolder() {
		return this.schema.newMessage();
	}

	/**
	 * The value in a merged holder.
	 * @throws IllegalArgumentException when the holder does not make a valid value (such as a
	 * record's constructor refusing the values read)
	 */
	@SuppressWarnings("unchecked")
	public T finish(Object holder) {
		return (T) ((this.schema instanceof MessageSchema messageSchema) ? messageSchema.finish(holder) : holder);
	}

	/** The type this schema is for. */
	public Type type() {
		return this.type;
	}

}
