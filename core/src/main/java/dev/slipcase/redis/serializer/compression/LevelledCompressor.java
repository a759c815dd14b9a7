package dev.slipcase.redis.serializer.compression;

/**
 * What every built-in compressor has: its id in the value header, its name and its level.
 * Immutable.
 */
abstract class LevelledCompressor implements Compressor {

	private final int id;

	private final String name;

	private final int level;

	LevelledCompressor(int id, String name, int level) {
		this.id = id;
		this.name = name;
		this.level = level;
	}

	@Override
	public final int id() {
		return this.id;
	}

	@Override
	public final String name() {
		return this.name;
	}

	/** The compression level ({@code 0} for LZ4's fast compressor, which has none). */
	public final int level() {
		return this.level;
	}

}
