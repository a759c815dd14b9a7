package dev.slipcase.redis.serializer;

/**
 * Stands for a deserialization gadget in {@link ForyFormatTests}: records its initialization in a
 * system property, which the copies of every class loader share. Top-level, so that a copy in
 * another loader needs no access to a nest host.
 */
public final class ForyGadget {

	public static final String WITNESS = "slipcase.fory.gadget";

	static {
		System.setProperty(WITNESS, "initialized");
	}

	public ForyGadget() {
	}

}
