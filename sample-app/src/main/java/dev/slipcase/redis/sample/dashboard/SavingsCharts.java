package dev.slipcase.redis.sample.dashboard;

import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.text.DecimalFormat;
import java.util.Arrays;
import java.util.Map;

import dev.slipcase.redis.charts.ChartFonts;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGGraphics2D;

/**
 * Grouped bar charts as SVG markup, drawn by JFreeChart on JFreeSVG's {@link SVGGraphics2D} (the
 * library the benchmark report's charts come from): one group per cache or namespace, one bar
 * for the plain way and one for Slipcase's, on a log axis when the values span more than 30
 * times. Rendered on the server, so the page needs no script to
 * show them.
 */
final class SavingsCharts {

	static final String PLAIN = "plain (Spring's generic JSON / plain keys)";

	static final String SLIPCASE = "Slipcase";

	private static final Color PLAIN_COLOR = new Color(0x9AA5B1);

	private static final Color SLIPCASE_COLOR = new Color(0x2B7A4B);

	static {
		// before JFreeChart's first font: DejaVu Sans from the build, so that a machine without
		// fontconfig or fonts renders the charts too
		ChartFonts.install();
	}

	private SavingsCharts() {
	}

	/**
	 * An SVG bar chart.
	 * @param id the {@code id} of the {@code svg} element
	 * @param bars the bytes of each group: plain first, then Slipcase
	 */
	static String barChart(String id, String title, Map<String, double[]> bars, int width, int height) {
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		bars.forEach((group, values) -> {
			dataset.addValue(values[0], PLAIN, group);
			dataset.addValue(values[1], SLIPCASE, group);
		});
		JFreeChart chart = ChartFactory.createBarChart(title, null, "bytes per key (lower is leaner)", dataset,
				PlotOrientation.VERTICAL, true, false, false);
		chart.setBackgroundPaint(Color.WHITE);
		chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
		CategoryPlot plot = chart.getCategoryPlot();
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(new Color(0xDDDDDD));
		double smallest = bars.values().stream().flatMapToDouble(Arrays::stream).filter((v) -> v > 0).min().orElse(1);
		double largest = bars.values().stream().flatMapToDouble(Arrays::stream).max().orElse(1);
		if (largest / smallest > 30) {
			// a 200-byte entry beside a 45 KB one: on a linear axis the small one has no visible bar
			LogAxis axis = new LogAxis("bytes per key, log scale (lower is leaner)");
			axis.setBase(10);
			axis.setNumberFormatOverride(new DecimalFormat("#,##0"));
			// one tick per power of ten
			axis.setTickUnit(new NumberTickUnit(1));
			axis.setRange(Math.max(1, smallest / 3), largest * 3);
			plot.setRangeAxis(axis);
		}
		BarRenderer renderer = (BarRenderer) plot.getRenderer();
		renderer.setBarPainter(new StandardBarPainter());
		renderer.setShadowVisible(false);
		renderer.setSeriesPaint(0, PLAIN_COLOR);
		renderer.setSeriesPaint(1, SLIPCASE_COLOR);
		SVGGraphics2D svg = new SVGGraphics2D(width, height);
		svg.setDefsKeyPrefix(id);
		chart.draw(svg, new Rectangle2D.Double(0, 0, width, height));
		return svg.getSVGElement(id);
	}

}
