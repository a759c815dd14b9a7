package dev.slipcase.redis.serializer.compression;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The Zstandard dictionaries loaded for reading, by {@linkplain ZstdDictionary#id() id}. A Zstd
 * frame names the dictionary it was compressed with; {@link ZstdCompressor} looks it up here. To
 * roll out a new dictionary, load it next to the old one and write with the new: values written
 * with the old one stay readable for as long as it stays in this set.
 * <p>
 * Immutable and thread-safe; {@link #with} returns a new set.
 */
public final class ZstdDictionaries {

	private static final ZstdDictionaries NONE = new ZstdDictionaries(Map.of());

	private final Map<Long, ZstdDictionary> byId;

	private ZstdDictionaries(Map<Long, ZstdDictionary> byId) {
		this.byId = byId;
	}

	/** No dictionaries: only frames compressed without one can be read. */
	public static ZstdDictionaries none() {
		return NONE;
	}

	/**
	 * The given dictionaries.
	 * @throws IllegalArgumentException when two different dictionaries have the same id
	 */
	public static ZstdDictionaries of(ZstdDictionary... dictionaries) {
		Assert.notNull(dictionaries, "dictionaries must not be null");
		return of(Arrays.asList(dictionaries));
	}

	/**
	 * The given dictionaries.
	 * @throws IllegalArgumentException when two different dictionaries have the same id
	 */
	public static ZstdDictionaries of(Collection<ZstdDictionary> dictionaries) {
		Assert.notNull(dictionaries, "dictionaries must not be null");
		ZstdDictionaries result = NONE;
		for (ZstdDictionary dictionary : dictionaries) {
			result = result.with(dictionary);
		}
		return result;
	}

	/**
	 * These dictionaries and {@code dictionary}.
	 * @throws IllegalArgumentException when a different dictionary with the same id is already in
	 * this set (the same dictionary again is fine)
	 */
	public ZstdDictionaries with(ZstdDictionary dictionary) {
		Assert.notNull(dictionary, "dictionary must not be null");
		ZstdDictionary existing = this.byId.get(dictionary.id());
		if (existing != null) {
			if (existing.equals(dictionary)) {
				return this;
			}
			throw new IllegalArgumentException(
					"Two different zstd dictionaries have the same id " + dictionary.id() + ": " + existing + " and " + dictionary);
		}
		Map<Long, ZstdDictionary> byId = new TreeMap<>(this.byId);
		byId.put(dictionary.id(), dictionary);
		return new ZstdDictionaries(Collections.unmodifiableMap(byId));
	}

	/** The dictionary with {@code id}, or {@code null} when it is not loaded. */
	public @Nullable ZstdDictionary find(long id) {
		return this.byId.get(id);
	}

	/** The ids of the loaded dictionaries, in ascending order. */
	public Set<Long> ids() {
		return this.byId.keySet();
	}

	public boolean isEmpty() {
		return this.byId.isEmpty();
	}

	@Override
	public String toString() {
		return "ZstdDictionaries" + this.byId.values();
	}

}
