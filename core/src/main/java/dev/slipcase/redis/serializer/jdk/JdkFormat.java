package dev.slipcase.redis.serializer.jdk;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.Locale;

import dev.slipcase.redis.serializer.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

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
			throw new SerializationException(NAME + ": cannot encode value: " + ex.getMessage(), ex);
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
		catch (StackOverflowError ex) {
			throw new SerializationException(NAME + ": refused a value nested too deeply", ex);
		}
		catch (VirtualMachineError ex) {
			throw ex;
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
			throw new SerializationException(NAME + ": cannot decode value: " + inWords(ex), ex);
		}
	}

	private static String inWords(Throwable failure) {
		if (failure instanceof java.io.EOFException) {
			return "the value ends early (it is truncated)";
		}
		String message = failure.getMessage();
		String kind = failure.getClass().getSimpleName().replaceAll("(?<=[a-z])(?=[A-Z])", " ").toLowerCase(Locale.ROOT);
		return (message == null || message.isBlank()) ? "the value is malformed (" + kind + ")" : message + " (" + kind + ")";
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
	 * allowlist and limits, and remembers the first refusal in words. One per value read.
	 */
	private static final class ValueFilter implements java.io.ObjectInputFilter {

		private final JdkAllowlist allowlist;

		private final JdkLimits limits;

		private final int valueLength;

		private volatile @Nullable String refusal;

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
			long left = this.valueLength - info.streamBytes();
			if (info.arrayLength() > Math.max(left, 0)) {
				return refuse("an array of " + info.arrayLength() + " elements in a value with " + Math.max(left, 0)
						+ " bytes left");
			}
			Class<?> type = info.serialClass();
			if (type != null && !this.allowlist.allows(type.getName())) {
				return refuse("a value naming class " + type.getName() + ", which is not allowed");
			}
			return Status.ALLOWED;
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

	/** An object stream that loads only allowed classes, through the application's class loader. */
	private static final class FilteredStream extends ObjectInputStream {

		private final ValueFilter filter;

		private final ClassLoader classLoader;

		FilteredStream(InputStream in, ValueFilter filter, ClassLoader classLoader) throws IOException {
			super(in);
			this.filter = filter;
			this.classLoader = classLoader;
			setObjectInputFilter(filter);
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

	}

}
