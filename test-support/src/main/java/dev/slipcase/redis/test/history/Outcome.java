package dev.slipcase.redis.test.history;

/** How an operation ended, in Jepsen's three kinds. */
public enum Outcome {

	/** Acknowledged: the call returned. */
	OK,

	/** Certainly not applied: the store refused it before doing anything. */
	FAIL,

	/** Unknown: a timeout, a lost reply, a connection that failed; it may or may not have been applied. */
	INFO

}
