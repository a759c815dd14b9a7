package dev.slipcase.redis.sharded;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.slipcase.redis.test.RedisServer;

/**
 * The contract run against one standalone server: connects a client, a {@code String} connection
 * for inspecting Redis, and the templates under test before the class, and closes them after it.
 * Subclasses say which server.
 */
abstract class StandaloneShardedTemplateContract extends ShardedTemplateContract {

	RedisServer server;

	RedisClient client;

	private StatefulRedisConnection<String, String> connection;

	private ShardedTemplates templates;

	/** Starts (or finds the shared) server to run against; called once, before the class. */
	abstract RedisServer startServer();

	/** Whether the server belongs to this class, to be stopped after it. */
	abstract boolean ownsServer();

	@BeforeAll
	void connect() {
		this.server = startServer();
		this.client = RedisClient.create(this.server.endpoint().uri());
		this.connection = this.client.connect();
		this.templates = ShardedTemplates.create(this.client);
	}

	@AfterAll
	void disconnect() {
		this.templates.close();
		this.connection.close();
		this.client.shutdown();
		if (ownsServer()) {
			this.server.close();
		}
	}

	@Override
	ShardedTemplates templates() {
		return this.templates;
	}

	@Override
	RedisClusterCommands<String, String> redis() {
		return this.connection.sync();
	}

}
