package dev.slipcase.redis.charts;

import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.GraphicsEnvironment;
import java.awt.image.BufferedImage;
import java.util.Locale;

/**
 * Run in a JVM of its own by {@link ChartFontsTests}: lays out a chart's title as JFreeChart does
 * and prints its width; installs the bundled fonts first when its argument is {@code install}.
 */
public final class FontProbe {

	private FontProbe() {
	}

	public static void main(String[] arguments) {
		if (arguments.length > 0 && arguments[0].equals("install")) {
			ChartFonts.install();
		}
		Graphics2D graphics = new BufferedImage(1, 1, BufferedImage.TYPE_INT_ARGB).createGraphics();
		Font title = new Font(Font.SANS_SERIF, Font.BOLD, 14);
		System.out.println("width=" + graphics.getFontMetrics(title).stringWidth("bytes per key (lower is leaner)"));
		System.out.println("families=" + String.join(",",
				GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames(Locale.ROOT)));
	}

}
