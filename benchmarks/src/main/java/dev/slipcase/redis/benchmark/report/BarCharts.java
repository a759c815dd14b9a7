package dev.slipcase.redis.benchmark.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.slipcase.redis.charts.ChartFonts;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGGraphics2D;

/**
 * Renders grouped bar charts (one group of bars per comparison group, one bar per candidate) to SVG with
 * JFreeChart drawing on JFreeSVG's {@link SVGGraphics2D}.
 */
public final class BarCharts {

	private static final int WIDTH = 900;

	private static final int HEIGHT = 480;

	static {
		// before JFreeChart's first font: DejaVu Sans from the build, so that a machine without
		// fontconfig or fonts renders the charts too
		ChartFonts.install();
	}

	private BarCharts() {
	}

	/**
	 * Writes one chart of the given values.
	 * @param values bar heights by group, then by series (the legend), in display order
	 * @return whether a chart was written (false when there were no values)
	 */
	public static boolean write(Path file, String title, String axisLabel, Map<String, Map<String, Double>> values)
			throws IOException {
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		values.forEach((group, bars) -> bars.forEach((series, v) -> dataset.addValue(v, series, group)));
		if (dataset.getRowCount() == 0) {
			return false;
		}
		JFreeChart chart = ChartFactory.createBarChart(title, null, axisLabel, dataset, PlotOrientation.VERTICAL,
				true, false, false);
		style(chart);
		SVGGraphics2D svg = new SVGGraphics2D(WIDTH, HEIGHT);
		chart.draw(svg, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
		Files.createDirectories(file.getParent());
		Files.writeString(file, svg.getSVGDocument(), StandardCharsets.UTF_8);
		return true;
	}

	private static void style(JFreeChart chart) {
		chart.setBackgroundPaint(Color.WHITE);
		chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
		CategoryPlot plot = chart.getCategoryPlot();
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(new Color(0xDDDDDD));
		CategoryAxis domain = plot.getDomainAxis();
		domain.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
		domain.setMaximumCategoryLabelLines(2);
		BarRenderer renderer = (BarRenderer) plot.getRenderer();
		renderer.setBarPainter(new StandardBarPainter());
		renderer.setShadowVisible(false);
		renderer.setItemMargin(0.05);
	}

}
