package dev.slipcase.redis.serializer.format;

import java.util.Arrays;
import java.util.List;

import dev.slipcase.redis.serializer.compression.Compressor;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The compressors a {@link SelfDescribingFormat} can read values with, by the id in their header
 * and by name. Reading needs every compressor any stored value was written with, not only the one
 * used for writing: keep old compressors here after switching. Immutable and thread-safe.
 */
public final class CompressorLookup {

	private static final CompressorLookup NONE = new CompressorLookup(new Compressor[8]);

	private final @Nullable Compressor[] byId;

	private CompressorLookup(@Nullable Compressor[] byId) {
		this.byId = byId;
	}

	/** A lookup with no compressors: compressed values are refused. */
	public static CompressorLookup none() {
		return NONE;
	}

	/**
	 * A lookup of the given compressors.
	 * @throws IllegalArgumentException when an id is outside 1..7 or two compressors share one
	 */
	public static CompressorLookup of(Compressor... compressors) {
		return of(Arrays.asList(compressors));
	}

	/**
	 * A lookup of the given compressors.
	 * @throws IllegalArgumentException when an id is outside 1..7 or two compressors share one
	 */
	public static CompressorLookup of(List<? extends Compressor> compressors) {
		Assert.notNull(compressors, "compressors must not be null");
		Compressor[] byId = new Compressor[8];
		for (Compressor compressor : compressors) {
			Assert.notNull(compressor, "compressor must not be null");
			int id = compressor.id();
			if (id < 1 || id > 7) {
				throw new IllegalArgumentException(
						"compressor '" + compressor.name() + "' has id " + id + "; ids are 1 to 7");
			}
			if (byId[id] != null && byId[id] != compressor) {
				throw new IllegalArgumentException("compressors '" + byId[id].name() + "' and '"
						+ compressor.name() + "' share id " + id);
			}
			byId[id] = compressor;
		}
		return new CompressorLookup(byId);
	}

	/** This lookup plus {@code compressor} (replacing one with the same id). */
	public CompressorLookup with(Compressor compressor) {
		CompressorLookup added = of(compressor);
		Compressor[] byId = this.byId.clone();
		byId[compressor.id()] = null;
		for (int id = 1; id < 8; id++) {
			if (byId[id] == null) {
				byId[id] = added.byId[id];
			}
		}
		return new CompressorLookup(byId);
	}

	/** The compressor with header id {@code id}, or {@code null}. */
	public @Nullable Compressor byId(int id) {
		return (id >= 1 && id <= 7) ? this.byId[id] : null;
	}

	/** The compressor named {@code name} (case-insensitive), or {@code null}. */
	public @Nullable Compressor byName(String name) {
		for (Compressor compressor : this.byId) {
			if (compressor != null && compressor.name().equalsIgnoreCase(name)) {
				return compressor;
			}
		}
		return null;
	}

	/** The names of the compressors, for messages. */
	public List<String> names() {
		return Arrays.stream(this.byId).filter((c) -> c != null).map(Compressor::name).toList();
	}

}
