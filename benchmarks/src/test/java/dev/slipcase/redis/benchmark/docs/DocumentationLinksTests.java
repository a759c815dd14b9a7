package dev.slipcase.redis.benchmark.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every relative link in README.md and docs/ reaches a file, and every {@code #anchor} a heading. */
class DocumentationLinksTests {

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	@Test
	void everyRelativeLinkResolves() {
		List<String> broken = new ArrayList<>();
		for (Path file : Docs.markdownFiles()) {
			String markdown = withoutCode(Docs.read(file));
			Matcher links = LINK.matcher(markdown);
			while (links.find()) {
				String target = links.group(1);
				if (target.matches("[a-z]+:.*")) {
					continue;
				}
				String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
				String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
				Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
				if (!Files.exists(resolved)) {
					broken.add(Docs.root().relativize(file) + ": " + target + " (no such file)");
				}
				else if (anchor != null && !Docs.anchors(Docs.read(resolved)).contains(anchor)) {
					broken.add(Docs.root().relativize(file) + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).as("broken links").isEmpty();
	}

	@Test
	void aBrokenLinkIsFound() {
		Path readme = Docs.root().resolve("README.md");
		assertThat(Files.exists(readme.getParent().resolve("docs/no-such-page.md"))).isFalse();
		assertThat(Docs.anchors("# Redis memory per key: plain SET vs sharded\n```\n# not a heading\n```"))
			.containsExactly("redis-memory-per-key-plain-set-vs-sharded");
	}

	private static String withoutCode(String markdown) {
		return markdown.replaceAll("(?s)```.*?```", "").replaceAll("`[^`\n]*`", "");
	}

}
