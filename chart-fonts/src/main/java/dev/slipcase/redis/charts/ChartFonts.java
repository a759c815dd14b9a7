package dev.slipcase.redis.charts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Makes Java's logical fonts ({@code SansSerif}, {@code Dialog} and the rest, which JFreeChart
 * lays out its text with) the DejaVu Sans this jar bundles, so that charts render the same on every
 * machine, including one without fontconfig or any font installed, where Java's font manager
 * otherwise fails to start ("Fontconfig head is null").
 * <p>
 * {@link #install()} copies the two font files to a temporary folder once per JVM and points the
 * JDK's {@code sun.awt.fontconfig} property at a font configuration naming them. It must run before
 * the JVM first uses a font; afterwards it has no effect (the fonts already chosen stay). A JVM
 * started with {@code -Dsun.awt.fontconfig=...} keeps its own. Thread-safe.
 */
public final class ChartFonts {

	/** The JDK's property naming a font configuration file of the user's own. */
	static final String PROPERTY = "sun.awt.fontconfig";

	private static final List<String> LOGICAL_FONTS = List.of("sansserif", "serif", "monospaced", "dialog",
			"dialoginput");

	private static final String REGULAR = "DejaVuSans.ttf";

	private static final String BOLD = "DejaVuSans-Bold.ttf";

	private static boolean installed;

	private ChartFonts() {
	}

	/**
	 * Installs the bundled font as every logical font of this JVM, unless a configuration is
	 * already set. Idempotent.
	 * @throws UncheckedIOException when the fonts cannot be copied to the temporary folder
	 */
	public static synchronized void install() {
		if (installed || System.getProperty(PROPERTY) != null) {
			return;
		}
		try {
			Path folder = Files.createTempDirectory("slipcase-chart-fonts-");
			folder.toFile().deleteOnExit();
			Path regular = copy(REGULAR, folder);
			Path bold = copy(BOLD, folder);
			Path configuration = folder.resolve("fontconfig.properties");
			Files.writeString(configuration, configuration(regular, bold), StandardCharsets.ISO_8859_1);
			configuration.toFile().deleteOnExit();
			System.setProperty(PROPERTY, configuration.toString());
			installed = true;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not copy the charts' fonts to a temporary folder", ex);
		}
	}

	/** The JDK's font configuration format: each logical font and style mapped to a font file. */
	static String configuration(Path regular, Path bold) {
		StringBuilder text = new StringBuilder("version=1\n");
		for (String logical : LOGICAL_FONTS) {
			for (String style : List.of("plain", "italic")) {
				text.append(logical).append('.').append(style).append(".latin-1=DejaVu Sans\n");
			}
			for (String style : List.of("bold", "bolditalic")) {
				text.append(logical).append('.').append(style).append(".latin-1=DejaVu Sans Bold\n");
			}
		}
		text.append("sequence.allfonts=latin-1\n");
		text.append("filename.DejaVu_Sans=").append(escaped(regular)).append('\n');
		text.append("filename.DejaVu_Sans_Bold=").append(escaped(bold)).append('\n');
		return text.toString();
	}

	/** A path as a properties file value: backslashes (Windows) and the path's own escapes doubled. */
	private static String escaped(Path path) {
		return path.toAbsolutePath().toString().replace("\\", "\\\\");
	}

	private static Path copy(String font, Path folder) throws IOException {
		try (InputStream in = ChartFonts.class.getResourceAsStream(font)) {
			if (in == null) {
				throw new IOException(font + " is missing from " + ChartFonts.class.getPackageName());
			}
			Path file = folder.resolve(font);
			Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
			file.toFile().deleteOnExit();
			return file;
		}
	}

}
