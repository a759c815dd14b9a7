package dev.slipcase.redis.charts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ChartFonts}, each in a JVM of its own whose fontconfig finds no font at all (an
 * empty {@code FONTCONFIG_FILE}), as on a machine without fonts.
 */
class ChartFontsTests {

	@TempDir
	Path temp;

	@Test
	void withTheBundledFontsTextIsLaidOutOnAMachineWithoutFonts() throws Exception {
		Probe probe = probe("install");
		assertThat(probe.exit()).as(probe.output()).isZero();
		assertThat(probe.output()).contains("DejaVu Sans");
		int width = Integer.parseInt(probe.output().replaceAll("(?s).*width=(\\d+).*", "$1"));
		assertThat(width).isBetween(150, 400);
	}

	@Test
	void withoutThemJavasFontManagerFailsOnSuchAMachine() throws Exception {
		Probe probe = probe("none");
		assertThat(probe.exit()).isNotZero();
		assertThat(probe.output()).contains("Fontconfig head is null");
	}

	@Test
	void theConfigurationMapsEveryLogicalFontAndStyleToAFile() {
		String configuration = ChartFonts.configuration(Path.of("/f/regular.ttf"), Path.of("/f/bold.ttf"));
		assertThat(configuration).contains("sansserif.plain.latin-1=DejaVu Sans\n",
				"dialog.bold.latin-1=DejaVu Sans Bold\n", "monospaced.bolditalic.latin-1=DejaVu Sans Bold\n",
				"filename.DejaVu_Sans=/f/regular.ttf\n", "filename.DejaVu_Sans_Bold=/f/bold.ttf\n");
		assertThat(configuration.lines().filter((line) -> line.contains(".latin-1="))).hasSize(20);
	}

	private Probe probe(String argument) throws IOException, InterruptedException {
		Path noFonts = Files.writeString(this.temp.resolve("fonts.conf"),
				"<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n");
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		ProcessBuilder builder = new ProcessBuilder(List.of(java.toString(), "-Djava.awt.headless=true",
				"-Duser.home=" + this.temp, "-cp", System.getProperty("java.class.path"), FontProbe.class.getName(),
				argument))
			.redirectErrorStream(true);
		builder.environment().put("FONTCONFIG_FILE", noFonts.toString());
		Process process = builder.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
		return new Probe(process.exitValue(), output);
	}

	private record Probe(int exit, String output) {
	}

}
