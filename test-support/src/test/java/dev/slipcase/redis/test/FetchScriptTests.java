package dev.slipcase.redis.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link FetchScript}: a fetch that fails says why in the script's own words.
 */
class FetchScriptTests {

	@TempDir
	Path temp;

	@Test
	void aScriptThatFailsFailsTheCallerWithItsOwnWordsAndTheRemedy() throws IOException {
		Path script = Files.writeString(this.temp.resolve("fetch-nothing"),
				"echo \"fetch-nothing: could not download chromium from http://deb.debian.org/debian bookworm\" >&2\nexit 3\n");
		assertThatIllegalStateException()
			.isThrownBy(() -> FetchScript.at(script).run(this.temp.resolve("target"), "Install it yourself."))
			.withMessageContaining("failed (exit 3)")
			.withMessageContaining("could not download chromium from http://deb.debian.org/debian bookworm")
			.withMessageEndingWith("Install it yourself.");
	}

	@Test
	void aScriptRunsWithTheFolderAsItsArgumentUnderALock() throws IOException {
		Path script = Files.writeString(this.temp.resolve("fetch-marker"), "touch \"$1/fetched\"\n");
		Path target = this.temp.resolve("target");
		FetchScript.at(script).run(target, "unused");
		assertThat(target.resolve("fetched")).exists();
		assertThat(target.resolve(".lock")).exists();
	}

	@Test
	void aScriptThatIsNotInTheProjectIsNamed() {
		assertThatIllegalStateException().isThrownBy(() -> new FetchScript("fetch-no-such-thing").run(this.temp, "Remedy."))
			.withMessageContaining(".ci/fetch-no-such-thing was not found above")
			.withMessageEndingWith("Remedy.");
	}

}
