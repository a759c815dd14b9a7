package dev.slipcase.redis.serializer.json;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.introspect.AnnotatedConstructor;
import tools.jackson.databind.module.SimpleValueInstantiators;

/**
 * Calls records' constructors through a method handle spread once per type, instead of
 * {@code MethodHandle.invokeWithArguments} per value as Jackson 3.1 does (which builds a spreader,
 * method types and lambda forms on every call: about a fifth of the garbage of reading a
 * record-heavy value). Only for records whose instantiator is Jackson's standard one with a
 * constructor creator; everything else, including error handling, stays Jackson's.
 */
final class FastRecordCreators extends SimpleValueInstantiators {

	private static final long serialVersionUID = 1L;

	@Override
	public ValueInstantiator modifyValueInstantiator(DeserializationConfig config, BeanDescription.Supplier bean,
			ValueInstantiator instantiator) {
		if (!bean.getBeanClass().isRecord() || instantiator.getClass() != StdValueInstantiator.class
				|| !(instantiator.getWithArgsCreator() instanceof AnnotatedConstructor creator)) {
			return instantiator;
		}
		try {
			Constructor<?> constructor = creator.getAnnotated();
			constructor.setAccessible(true);
			int count = constructor.getParameterCount();
			MethodHandle spread = MethodHandles.lookup()
				.unreflectConstructor(constructor)
				.asType(MethodType.genericMethodType(count))
				.asSpreader(Object[].class, count);
			return new SpreadInstantiator((StdValueInstantiator) instantiator, spread);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return instantiator;
		}
	}

	private static final class SpreadInstantiator extends StdValueInstantiator {

		private static final long serialVersionUID = 1L;

		private final transient MethodHandle creator;

		SpreadInstantiator(StdValueInstantiator source, MethodHandle creator) {
			super(source);
			this.creator = creator;
		}

		@Override
		public Object createFromObjectWith(DeserializationContext context, Object[] arguments) throws JacksonException {
			try {
				return (Object) this.creator.invokeExact(arguments);
			}
			catch (Error ex) {
				throw ex;
			}
			catch (Throwable ex) {
				return context.handleInstantiationProblem(_valueClass, arguments, rewrapCtorProblem(context, ex));
			}
		}

	}

}
