package dev.slipcase.redis.serializer.jdk;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Comparator;

/**
 * Stands for deserialization gadgets in {@link JdkFormatTests}: each records in a system property
 * that its code ran while a value was read, which a refused value must never let happen.
 */
final class JdkGadget implements Serializable {

	static final String WITNESS = "slipcase.jdk.gadget";

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		in.defaultReadObject();
		System.setProperty(WITNESS, "readObject ran");
	}

	/** The trigger of the PriorityQueue chains (CommonsBeanutils1, CommonsCollections2 and 4): compare runs on read. */
	static final class Trigger implements Comparator<Object>, Serializable {

		@Override
		public int compare(Object left, Object right) {
			System.setProperty(WITNESS, "compare ran");
			return 0;
		}

	}

}
