package dev.slipcase.redis.autoconfigure;

import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.near.ClusterMasters;
import dev.slipcase.redis.near.TrackedNodes;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.StringCodec;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The servers a near tier on Boot's {@link LettuceConnectionFactory} must hear invalidations from:
 * the one server its client connects to (standalone, or Sentinel's master, followed across a
 * failover by the client's reconnect), or every master of its cluster, looked at again every five
 * heartbeats. Connections come from the factory's client of the moment, or, on a cluster, from a
 * standalone client sharing its resources with the cluster's credentials and TLS setting.
 */
public final class BootTrackedNodes {

	/** How many heartbeats apart the cluster's masters are looked at again ({@code CLUSTER NODES}). */
	private static final int CLUSTER_REFRESH_HEARTBEATS = 5;

	private BootTrackedNodes() {
	}

	/** The servers {@code factory}'s client uses. */
	public static TrackedNodes of(LettuceConnectionFactory factory) {
		if (!factory.isClusterAware()) {
			return TrackedNodes
				.of(Connectors.following(factory::getRequiredNativeClient, StringCodec.UTF8, factory.getDatabase()));
		}
		RedisClusterConfiguration cluster = factory.getClusterConfiguration();
		RedisURI.Builder template = RedisURI.builder()
			.withHost("localhost")
			.withSsl(factory.getClientConfiguration().isUseSsl())
			.withTimeout(factory.getClientConfiguration().getCommandTimeout());
		if (cluster != null && cluster.getPassword().isPresent()) {
			char[] password = cluster.getPassword().get();
			if (cluster.getUsername() != null) {
				template.withAuthentication(cluster.getUsername(), password);
			}
			else {
				template.withPassword(password);
			}
		}
		return new ClusterMasters((RedisClusterClient) factory.getRequiredNativeClient(), template.build(),
				CLUSTER_REFRESH_HEARTBEATS);
	}

}
