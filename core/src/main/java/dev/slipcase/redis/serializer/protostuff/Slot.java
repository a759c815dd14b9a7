package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;

import io.protostuff.Input;
import io.protostuff.Output;

/** How one non-null value of a Java type is written as field {@code number} and read back. */
abstract class Slot {

	abstract void write(Output output, int number, Object value, boolean repeated) throws IOException;

	/** Reads the value of the field whose number was just read. */
	abstract Object read(Input input) throws IOException;

}
