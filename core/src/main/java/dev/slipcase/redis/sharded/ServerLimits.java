package dev.slipcase.redis.sharded;

/**
 * What the server allows a hash before it leaves the compact encoding, and whether it expires hash
 * fields, as found at start-up.
 *
 * @param maxEntries {@code hash-max-listpack-entries} ({@code hash-max-ziplist-entries} on 6.2)
 * @param maxValueBytes {@code hash-max-listpack-value}: the longest field or value a compact hash keeps
 * @param fieldExpiry whether the server has {@code HPEXPIRE}, {@code HPTTL} and {@code HPERSIST} (Redis 7.4+)
 * @param setWithExpiry whether the server has {@code HSETEX}, which sets fields and their TTL in one
 * command (Redis 8.0+)
 * @param version the server's {@code redis_version}
 */
public record ServerLimits(int maxEntries, int maxValueBytes, boolean fieldExpiry, boolean setWithExpiry,
		String version) {

	@Override
	public String toString() {
		return "Redis " + this.version + " (max entries " + this.maxEntries + ", max value " + this.maxValueBytes
				+ " bytes, hash-field expiry " + (this.setWithExpiry ? "with HSETEX" : this.fieldExpiry ? "yes" : "no") + ")";
	}

}
