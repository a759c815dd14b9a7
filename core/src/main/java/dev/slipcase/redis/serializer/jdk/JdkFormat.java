package dev.slipcase.redis.serializer.jdk;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;
import org.springframework.util.ReflectionUtils;

/**
 * JDK serialization as Spring Data's {@code JdkSerializationRedisSerializer} writes it, read only
 * through a {@link JdkAllowlist} and {@link JdkLimits}: a class outside the allowlist is refused
 * by name before it is loaded, so none of its code runs, and proxies are refused outright. Every
 * refusal is a {@link SerializationException} saying what was refused. Immutable and thread-safe.
 */
public final class JdkFormat implements ValueFormat<Object> {

	/** The stream header every JDK-serialized value starts with: magic {@code 0xACED}, version 5. */
	private static final int STREAM_HEADER = 0xACED0005;

	private static final String NAME = "jdk";

	private final JdkAllowlist allowlist;

	private final JdkLimits limits;

	private final ClassLoader classLoader;

	private JdkFormat(JdkAllowlist allowlist, JdkLimits limits, ClassLoader classLoader) {
		this.allowlist = allowlist;
		this.limits = limits;
		this.classLoader = classLoader;
	}

	/**
	 * A format reading only the classes {@code allowlist} names, within {@code limits}.
	 * @param classLoader loads the allowed classes a value names
	 */
	public static JdkFormat of(JdkAllowlist allowlist, JdkLimits limits, ClassLoader classLoader) {
		Assert.notNull(allowlist, "allowlist must not be null");
		Assert.notNull(limits, "limits must not be null");
		Assert.notNull(classLoader, "classLoader must not be null");
		return new JdkFormat(allowlist, limits, classLoader);
	}

	/** Whether {@code bytes} start as a JDK-serialized value does; reads nothing but the first four bytes. */
	public static boolean isJdkSerialized(byte[] bytes) {
		return bytes.length >= 4 && ((bytes[0] & 0xFF) << 24 | (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8
				| (bytes[3] & 0xFF)) == STREAM_HEADER;
	}

	/** The classes this format reads. */
	public JdkAllowlist allowlist() {
		return this.allowlist;
	}

	@Override
	public void encode(Object value, ByteBuf out) {
		if (!(value instanceof Serializable)) {
			throw new SerializationException(
					NAME + ": cannot encode a " + value.getClass().getName() + ", which is not Serializable");
		}
		try (ObjectOutputStream stream = new ObjectOutputStream(new ByteBufOutputStream(out))) {
			stream.writeObject(value);
		}
		catch (NotSerializableException ex) {
			throw new SerializationException(NAME + ": cannot encode value: it holds a " + ex.getMessage()
					+ ", which is not Serializable", ex);
		}
		catch (IOException | RuntimeException ex) {
			throw FormatErrors.encodeFailure(NAME, ex);
		}
	}

	@Override
	public Object decode(ByteBuf in) {
		int length = in.readableBytes();
		if (length > this.limits.maxBytes()) {
			throw new SerializationException(NAME + ": refused a value of " + length + " bytes, over the limit of "
					+ this.limits.maxBytes());
		}
		if (length < 4 || in.getInt(in.readerIndex()) != STREAM_HEADER) {
			throw new SerializationException(NAME + ": not a JDK-serialized value (no stream header)");
		}
		ValueFilter filter = new ValueFilter(this.allowlist, this.limits, length);
		try (FilteredStream stream = new FilteredStream(new ByteBufInputStream(in), filter, this.classLoader)) {
			return stream.readObject();
		}
		catch (Throwable ex) {
			String refusal = filter.refusal();
			if (refusal != null) {
				throw new SerializationException(NAME + ": refused " + refusal);
			}
			if (ex instanceof ClassNotFoundException) {
				throw new SerializationException(NAME + ": the value names class " + ex.getMessage()
						+ ", which is not on the class path", ex);
			}
			throw FormatErrors.decodeFailure(NAME, ex);
		}
	}

	@Override
	public int estimateSize(Object value) {
		return 256;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String toString() {
		return "JdkFormat[" + this.allowlist.classNames().size() + " classes, " + this.limits + "]";
	}

	/**
	 * Checks each class, array, depth and reference count the stream reports against the
	 * allowlist and limits, and each container read against the expansion limit, and remembers
	 * the first refusal in words. One per value read; not thread-safe.
	 */
	private static final class ValueFilter implements ObjectInputFilter {

		private final JdkAllowlist allowlist;

		private final JdkLimits limits;

		private final int valueLength;

		/** Containers read so far, with what each expands to. */
		private final Map<Object, Long> expansions = new IdentityHashMap<>();

		private long claimedElements;

		private @Nullable String refusal;

		ValueFilter(JdkAllowlist allowlist, JdkLimits limits, int valueLength) {
			this.allowlist = allowlist;
			this.limits = limits;
			this.valueLength = valueLength;
		}

		@Override
		public Status checkInput(FilterInfo info) {
			if (info.depth() > this.limits.maxDepth()) {
				return refuse("a value nested deeper than " + this.limits.maxDepth() + " objects");
			}
			if (info.references() > this.limits.maxReferences()) {
				return refuse("a value holding more than " + this.limits.maxReferences() + " objects and references");
			}
			if (info.arrayLength() >= 0) {
				long left = Math.max(this.valueLength - info.streamBytes(), 0);
				if (info.arrayLength() > left) {
					return refuse("an array of " + info.arrayLength() + " elements in a value with " + left
							+ " bytes left");
				}
				// each element takes a byte at least, and a hash table asks for at most twice its entries
				this.claimedElements += info.arrayLength();
				if (this.claimedElements > 2L * this.valueLength) {
					return refuse("arrays of " + this.claimedElements + " elements in all in a value of "
							+ this.valueLength + " bytes");
				}
			}
			Class<?> type = info.serialClass();
			if (type != null && !this.allowlist.allows(type.getName())) {
				return refuse("a value naming class " + type.getName() + ", which is not allowed");
			}
			return Status.ALLOWED;
		}

		/**
		 * Refuses a container that, with every shared part counted at each place it is reached,
		 * holds more containers than the value may hold objects: a value without shared parts never
		 * does, and hashing one that does (nested sets that share their members) takes time
		 * exponential in its depth. Called as each object is read, after what it holds.
		 */
		void expand(Object value) throws InvalidObjectException {
			long expansion;
			if (value instanceof Collection<?> collection) {
				expansion = 1;
				for (Object element : collection) {
					expansion += expansionOf(element);
				}
			}
			else if (value instanceof Map<?, ?> map) {
				expansion = 1;
				for (Map.Entry<?, ?> entry : map.entrySet()) {
					expansion += expansionOf(entry.getKey()) + expansionOf(entry.getValue());
				}
			}
			else if (value instanceof Object[] array) {
				expansion = 1;
				for (Object element : array) {
					expansion += expansionOf(element);
				}
			}
			else if (!isJdk(value.getClass())) {
				expansion = 1 + fieldsExpansion(value);
			}
			else {
				return;
			}
			if (expansion > this.limits.maxReferences()) {
				refuse("a value whose shared parts expand to more than " + this.limits.maxReferences() + " objects");
				throw new InvalidObjectException("expands too far");
			}
			this.expansions.put(value, expansion);
		}

		/** What an application object's fields expand to: its hash code may hash them all. */
		private long fieldsExpansion(Object value) {
			long[] expansion = new long[1];
			ReflectionUtils.doWithFields(value.getClass(), (field) -> {
				try {
					ReflectionUtils.makeAccessible(field);
					expansion[0] += expansionOf(field.get(value));
				}
				catch (RuntimeException ex) {
					// a field of a module that does not open it: it holds nothing read
				}
			}, (field) -> !Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive());
			return expansion[0];
		}

		private static boolean isJdk(Class<?> type) {
			String name = type.getName();
			return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
		}

		private long expansionOf(@Nullable Object part) {
			return (part != null) ? this.expansions.getOrDefault(part, 0L) : 0;
		}

		Status refuse(String why) {
			if (this.refusal == null) {
				this.refusal = why;
			}
			return Status.REJECTED;
		}

		@Nullable String refusal() {
			return this.refusal;
		}

	}

	/**
	 * An object stream that loads only allowed classes, through the application's class loader,
	 * and has each object it reads checked against the expansion limit.
	 */
	private static final class FilteredStream extends ObjectInputStream {

		private final ValueFilter filter;

		private final ClassLoader classLoader;

		FilteredStream(InputStream in, ValueFilter filter, ClassLoader classLoader) throws IOException {
			super(in);
			this.filter = filter;
			this.classLoader = classLoader;
			// the JVM-wide filter (jdk.serialFilter), if any, still has its say
			ObjectInputFilter global = ObjectInputFilter.Config.getSerialFilter();
			setObjectInputFilter((global != null) ? ObjectInputFilter.merge(filter, global) : filter);
			enableResolveObject(true);
		}

		@Override
		protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
			String name = desc.getName();
			if (!this.filter.allowlist.allows(name)) {
				this.filter.refuse("a value naming class " + name + ", which is not allowed");
				throw new InvalidClassException(name, "not allowed");
			}
			try {
				return Class.forName(name, false, this.classLoader);
			}
			catch (ClassNotFoundException ex) {
				return super.resolveClass(desc);
			}
		}

		@Override
		protected Class<?> resolveProxyClass(String[] interfaces) throws IOException {
			this.filter.refuse("a proxy class (of " + String.join(", ", interfaces) + ")");
			throw new InvalidClassException("proxy", "not allowed");
		}

		@Override
		protected Object resolveObject(Object obj) throws IOException {
			this.filter.expand(obj);
			return obj;
		}

	}

}
