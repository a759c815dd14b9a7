package dev.slipcase.redis.sharded;

/**
 * What each call of a namespace's templates does, in words naming the namespace, for the message
 * of a failure ("Redis failed to read from namespace 'orders' the key 'order:42': …"); the key
 * follows. Built once per namespace, so that a call that succeeds builds no text. Immutable.
 *
 * @param get reading a value
 * @param set writing a value
 * @param setIfAbsent writing a value only where there is none
 * @param delete removing a value
 * @param lookUp whether a value exists
 * @param increment adding to a number
 * @param readTtl reading a TTL
 * @param expire setting a TTL
 * @param persist removing a TTL
 * @param getMany reading the values of several keys (no key follows)
 * @param setMany writing the values of several keys (no key follows)
 */
record CallNames(String get, String set, String setIfAbsent, String delete, String lookUp, String increment,
		String readTtl, String expire, String persist, String getMany, String setMany) {

	static CallNames of(String namespace) {
		String in = " namespace '" + namespace + "'";
		return new CallNames("read from" + in + " the key", "write to" + in + " the key",
				"write (if absent) to" + in + " the key", "delete from" + in + " the key", "look up in" + in + " the key",
				"increment in" + in + " the key", "read the TTL in" + in + " of the key",
				"set the TTL in" + in + " of the key", "remove the TTL in" + in + " of the key",
				"read keys of" + in, "write keys of" + in);
	}

}
