package dev.slipcase.redis.benchmark.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The repository's Markdown, read from the working tree the tests run in. */
final class Docs {

	private Docs() {
	}

	/** The repository's root: the first directory above the working directory holding README.md and docs/. */
	static Path root() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
				return dir;
			}
		}
		throw new IllegalStateException("No README.md and docs/ above " + Path.of("").toAbsolutePath());
	}

	static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** README.md and every Markdown file under docs/. */
	static List<Path> markdownFiles() {
		Path root = root();
		List<Path> files = new ArrayList<>();
		files.add(root.resolve("README.md"));
		try (var paths = Files.walk(root.resolve("docs"))) {
			paths.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(files::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return files;
	}

	/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
	static String anchor(String heading) {
		return heading.trim()
			.toLowerCase(Locale.ROOT)
			.replaceAll("[`*_]", "")
			.replaceAll("[^\\p{L}\\p{N} -]", "")
			.replace(' ', '-');
	}

	/** The anchors of every heading in {@code markdown}, outside fenced code blocks. */
	static List<String> anchors(String markdown) {
		List<String> anchors = new ArrayList<>();
		boolean fenced = false;
		for (String line : markdown.split("\n")) {
			if (line.startsWith("```")) {
				fenced = !fenced;
			}
			else if (!fenced && line.matches("#{1,6} .*")) {
				anchors.add(anchor(line.replaceFirst("#{1,6} ", "")));
			}
		}
		return anchors;
	}

}
