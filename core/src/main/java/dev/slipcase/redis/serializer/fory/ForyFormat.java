package dev.slipcase.redis.serializer.fory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.SizeHint;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import io.netty.buffer.ByteBuf;
import org.apache.fory.Fory;
import org.apache.fory.ThreadLocalFory;
import org.apache.fory.ThreadSafeFory;
import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.ForyBuilder;
import org.apache.fory.config.Language;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.pool.ThreadPoolFory;
import org.apache.fory.resolver.TypeResolver;
import org.apache.fory.serializer.Serializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;

import org.springframework.core.ResolvableType;
import org.springframework.util.Assert;

/**
 * Apache Fory (Java native mode) for values of one declared type: records, classes, generics,
 * {@code java.time}, {@code BigDecimal}, {@code Optional}, collections and maps. Binary, so a
 * {@link SelfDescribingFormat} always stores it behind a header.
 * <p>
 * <b>Safe by default.</b> Class registration is required: only the application classes reachable
 * from the declared type (see {@link ForyTypes}), plus the extra classes given, are registered, each
 * under its simple class name (its full name when two share one); a value naming any other class,
 * wherever it sits in the value, fails with a
 * {@link org.springframework.data.redis.serializer.SerializationException} and the class is neither
 * loaded nor instantiated. Nesting depth is capped.
 * <p>
 * <b>Schema evolution.</b> Fory's compatible mode: a value written before a record component or
 * field was added reads with that component's default, and a value written by the newer class
 * reads in the older one, which skips what it does not know, as long as the new component's
 * class is one the older one registers too (a JDK type, or an application class it already
 * has): a value holding a class the reader does not register fails, wherever it sits.
 * <p>
 * <b>Buffers.</b> Encoding writes straight into {@code out}'s memory through a Fory view of its
 * writable bytes (grown ahead from the sizes written before); only when a value outgrows that room
 * does Fory continue in a heap buffer, copied into {@code out} once. Decoding reads {@code in} in
 * place. Never releases a buffer. One Fory instance per platform thread (no lock on the hot path),
 * each with its serializers generated when the thread first uses the format; virtual threads, which
 * usually live for one request, borrow from a pool as large as the processor count instead.
 * Thread-safe.
 * <p>
 * Needs {@code org.apache.fory:fory-core} on the class path (an optional dependency of Slipcase).
 *
 * @param <T> the type of value
 */
public final class ForyFormat<T> implements TaggedFormat<T> {

	private static final int MAX_DEPTH = 64;

	private static final @Nullable MethodHandle IS_VIRTUAL = isVirtualHandle();

	private final Type type;

	private final Class<?> rawType;

	private final Function<ForyBuilder, Fory> configure;

	private final ThreadSafeFory perThread;

	private volatile @Nullable ThreadSafeFory pooled;

	private final AtomicInteger instances = new AtomicInteger();

	private final SizeHint sizeHint = new SizeHint();

	private ForyFormat(Type type, List<Class<?>> extraClasses,
			Map<Class<?>, Function<TypeResolver, Serializer<?>>> serializers) {
		this.type = type;
		this.rawType = ResolvableType.forType(type).toClass();
		List<Type> roots = new ArrayList<>();
		roots.add(type);
		roots.addAll(extraClasses);
		Map<Class<?>, String> registered = ForyTypes.reachableFrom(roots);
		this.configure = (builder) -> {
			Fory fory = builder.withLanguage(Language.JAVA)
				.requireClassRegistration(true)
				.withCompatibleMode(CompatibleMode.COMPATIBLE)
				.withRefTracking(false)
				.withMaxDepth(MAX_DEPTH)
				// compatible mode would read a class it does not know as a map of its fields, which then
				// sits where an Object, or a collection's element, is declared: refuse it instead
				.withDeserializeUnknownClass(false)
				.withAsyncCompilation(false)
				.suppressClassRegistrationWarnings(true)
				.withClassLoader(ForyFormat.class.getClassLoader())
				.build();
			registered.forEach((registeredClass, name) -> register(fory, registeredClass, name));
			serializers.forEach(fory::registerSerializer);
			// generate every registered class's serializer now, when the thread first uses the format,
			// rather than in the middle of its first value of that class
			fory.ensureSerializersCompiled();
			this.instances.incrementAndGet();
			return fory;
		};
		this.perThread = new ThreadLocalFory(this.configure);
	}

	/**
	 * The Fory for the calling thread: its own on a platform thread; on a virtual thread, one
	 * borrowed from a pool as large as the processor count, made on the first virtual thread's call.
	 * A virtual thread usually serves one request and ends, and making a Fory of its own costs far
	 * more than the value it would write.
	 */
	private ThreadSafeFory fory() {
		if (!isVirtual(Thread.currentThread())) {
			return this.perThread;
		}
		ThreadSafeFory pool = this.pooled;
		if (pool == null) {
			synchronized (this) {
				pool = this.pooled;
				if (pool == null) {
					pool = new ThreadPoolFory(this.configure, Runtime.getRuntime().availableProcessors());
					this.pooled = pool;
				}
			}
		}
		return pool;
	}

	/** How many Fory instances this format has made, for tests. */
	int instances() {
		return this.instances.get();
	}

	private static boolean isVirtual(Thread thread) {
		if (IS_VIRTUAL == null) {
			return false;
		}
		try {
			return (boolean) IS_VIRTUAL.invokeExact(thread);
		}
		catch (Throwable ex) {
			return false;
		}
	}

	/** {@code Thread.isVirtual()} on JDK 21 and later, else {@code null}. */
	private static @Nullable MethodHandle isVirtualHandle() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (NoSuchMethodException | IllegalAccessException ex) {
			return null;
		}
	}

	/**
	 * Registers {@code registeredClass} under {@code name}: a simple name in Slipcase's namespace, a
	 * full name under its own package (Fory's names hold no dots), none for Fory's own built-ins.
	 */
	private static void register(Fory fory, Class<?> registeredClass, String name) {
		if (fory.getTypeResolver().isRegistered(registeredClass)) {
			return;
		}
		int lastDot = name.lastIndexOf('.');
		if (lastDot < 0) {
			fory.register(registeredClass, "slipcase", name);
		}
		else {
			fory.register(registeredClass, name.substring(0, lastDot), name.substring(lastDot + 1));
		}
	}

	/** Fory for values of {@code type}. */
	public static <T> ForyFormat<T> of(Class<T> type) {
		Assert.notNull(type, "type must not be null");
		return new ForyFormat<>(type, List.of(), Map.of());
	}

	/** Fory for values of the generic {@code type}, such as {@code List<Order>}. */
	public static <T> ForyFormat<T> of(TypeReference<T> type) {
		Assert.notNull(type, "type must not be null");
		return new ForyFormat<>(type.getType(), List.of(), Map.of());
	}

	/** Fory for values of {@code type}; the caller vouches that {@code T} matches it. */
	public static <T> ForyFormat<T> of(Type type) {
		Assert.notNull(type, "type must not be null");
		return new ForyFormat<>(type, List.of(), Map.of());
	}

	/**
	 * Fory for values of {@code type} that may also hold instances of {@code extraClasses} (the
	 * implementations of an interface the type declares, say), which are registered too.
	 */
	public static <T> ForyFormat<T> of(Type type, List<Class<?>> extraClasses) {
		Assert.notNull(type, "type must not be null");
		Assert.notNull(extraClasses, "extraClasses must not be null");
		return new ForyFormat<>(type, List.copyOf(extraClasses), Map.of());
	}

	/**
	 * Like {@link #of(Type, List)}, with serializers of the caller's own for some registered classes
	 * (a class whose fields must not all be stored, say); each function builds the serializer for
	 * one thread's Fory.
	 */
	public static <T> ForyFormat<T> of(Type type, List<Class<?>> extraClasses,
			Map<Class<?>, Function<TypeResolver, Serializer<?>>> serializers) {
		Assert.notNull(type, "type must not be null");
		Assert.notNull(extraClasses, "extraClasses must not be null");
		Assert.notNull(serializers, "serializers must not be null");
		return new ForyFormat<>(type, List.copyOf(extraClasses), Map.copyOf(serializers));
	}

	@Override
	public void encode(T value, ByteBuf out) {
		int start = out.writerIndex();
		out.ensureWritable(this.sizeHint.estimate());
		try {
			MemoryBuffer target = out.hasArray()
					? MemoryBuffer.fromByteArray(out.array(), out.arrayOffset() + start, out.writableBytes())
					: MemoryBuffer.fromByteBuffer(out.nioBuffer(start, out.writableBytes()));
			boolean offHeap = target.isOffHeap();
			byte[] heap = target.getHeapMemory();
			MemoryBuffer written = fory().serialize(target, value);
			int length = written.writerIndex();
			if (written.isOffHeap() == offHeap && written.getHeapMemory() == heap && length <= out.writableBytes()) {
				out.writerIndex(start + length);
			}
			else {
				// the value outgrew the room ahead: Fory went on in a buffer of its own
				out.writeBytes(written.getBytes(0, length));
			}
		}
		catch (RuntimeException | Error ex) {
			out.writerIndex(start);
			throw FormatErrors.encodeFailure(name(), ex);
		}
		this.sizeHint.written(out.writerIndex() - start);
	}

	@Override
	public T decode(ByteBuf in) {
		int length = in.readableBytes();
		ByteBuffer view = in.nioBuffer(in.readerIndex(), length);
		try {
			MemoryBuffer source = MemoryBuffer.fromByteBuffer(view);
			Object value = fory().deserialize(source);
			if (source.readerIndex() != length) {
				throw FormatErrors.error(name(), (length - source.readerIndex())
						+ " bytes follow the value (it is not one Fory value, or a length field is corrupt)");
			}
			if (value != null && !this.rawType.isInstance(value)) {
				throw FormatErrors.error(name(), "the value is a " + value.getClass().getSimpleName() + ", not a "
						+ this.rawType.getSimpleName());
			}
			in.skipBytes(length);
			@SuppressWarnings("unchecked")
			T typed = (T) value;
			return typed;
		}
		catch (org.springframework.data.redis.serializer.SerializationException ex) {
			throw ex;
		}
		catch (IndexOutOfBoundsException ex) {
			throw FormatErrors.error(name(), "a length runs past the end of the " + length + "-byte value (it is "
					+ "truncated, or a length field is corrupt)", ex);
		}
		catch (RuntimeException | Error ex) {
			throw FormatErrors.decodeFailure(name(), ex);
		}
	}

	@Override
	public int estimateSize(T value) {
		return this.sizeHint.estimate();
	}

	@Override
	public int formatId() {
		return FormatHeader.FORY;
	}

	@Override
	public boolean isText() {
		return false;
	}

	@Override
	public String name() {
		return "fory";
	}

	@Override
	public String toString() {
		return "ForyFormat[" + this.type.getTypeName() + "]";
	}

}
