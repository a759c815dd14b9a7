package dev.slipcase.redis.sharded;

/**
 * How far a {@link ShardedMigrator} run has come. Counts cover the current run only.
 *
 * @param scanned plain keys of the namespace seen so far
 * @param copied keys whose value was copied into a bucket (or an overflow key)
 * @param alreadyPresent keys whose bucket already had a newer value, which was kept
 * @param skipped keys left in place: not a string, unreadable with the template's serializer, a TTL
 * the namespace refuses, or changed while being migrated
 * @param deleted plain keys deleted after their value was safely in the bucket
 * @param finished whether the scan has covered the whole keyspace
 */
public record MigrationProgress(long scanned, long copied, long alreadyPresent, long skipped, long deleted,
		boolean finished) {

}
