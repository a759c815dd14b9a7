package dev.slipcase.redis.serializer.format;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A generic type with every type argument resolved, such as {@code List<Order>} built from a
 * method's return type once its type variables are known. Equal to the JDK's own
 * {@code ParameterizedType} of the same raw type and arguments. Immutable.
 *
 * @param raw the raw class
 * @param arguments the type arguments, one per type parameter of {@code raw}
 */
public record ResolvedType(Class<?> raw, Type[] arguments) implements ParameterizedType {

	/** {@code raw} with {@code arguments}. */
	public ResolvedType {
		Assert.notNull(raw, "raw must not be null");
		Assert.notNull(arguments, "arguments must not be null");
		if (arguments.length != raw.getTypeParameters().length) {
			throw new IllegalArgumentException(raw.getName() + " takes " + raw.getTypeParameters().length
					+ " type arguments, not " + arguments.length);
		}
		arguments = arguments.clone();
	}

	@Override
	public Type[] getActualTypeArguments() {
		return this.arguments.clone();
	}

	@Override
	public Type getRawType() {
		return this.raw;
	}

	@Override
	public @Nullable Type getOwnerType() {
		return null;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof ParameterizedType that && this.raw.equals(that.getRawType())
				&& that.getOwnerType() == null && Arrays.equals(this.arguments, that.getActualTypeArguments());
	}

	@Override
	public int hashCode() {
		return this.raw.hashCode() ^ Arrays.hashCode(this.arguments);
	}

	@Override
	public String getTypeName() {
		return this.raw.getName()
				+ Arrays.stream(this.arguments).map(Type::getTypeName).collect(Collectors.joining(", ", "<", ">"));
	}

	@Override
	public String toString() {
		return getTypeName();
	}

}
