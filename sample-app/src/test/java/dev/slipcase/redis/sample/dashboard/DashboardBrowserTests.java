package dev.slipcase.redis.sample.dashboard;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import dev.slipcase.redis.sample.SampleWebTests;
import dev.slipcase.redis.test.HeadlessChromium;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The savings dashboard in a real headless browser (Debian's {@code chromium} driven through
 * {@code chromium-driver} by Selenium; installed, or fetched into the cache by
 * {@link HeadlessChromium}): it loads without a console error, its SVG charts have
 * bars, the button runs the memory comparison and shows the result, and the near cache section shows
 * products served from the JVM. Leaves a screenshot in
 * {@code target/dashboard.png} (the one in {@code docs/images} was taken by this test).
 */
class DashboardBrowserTests extends SampleWebTests {

	/** The colour of Slipcase's bars, {@code SavingsCharts}'s green. */
	private static final String SLIPCASE_FILL = "rgb(43,122,75)";

	/** The colour of the plain bars, {@code SavingsCharts}'s grey. */
	private static final String PLAIN_FILL = "rgb(154,165,177)";

	@LocalServerPort
	private int port;

	private ChromeDriver browser;

	@BeforeEach
	void openBrowser() {
		HeadlessChromium chromium = HeadlessChromium.find();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium.binary().toFile());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1560");
		options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromium.driver().toFile())
			.usingAnyFreePort()
			.build();
		this.browser = new ChromeDriver(service, options);
	}

	@AfterEach
	void closeBrowser() {
		if (this.browser != null) {
			this.browser.quit();
		}
	}

	@Test
	void theNearCacheSectionShowsProductsServedFromTheJvm() {
		// read one product until the near tier serves it (tracking may still be starting)
		new WebDriverWait(this.browser, Duration.ofSeconds(30)).until((page) -> {
			this.client.get().uri("/products/7").exchange().expectStatus().isOk();
			this.client.get().uri("/products/7").exchange().expectStatus().isOk();
			page.get("http://localhost:" + this.port + "/");
			String row = page.findElement(By.id("near-cache")).findElement(By.xpath(".//tbody/tr")).getText();
			return row.startsWith("products tracking") && !row.contains(" 0 / ");
		});
		String row = this.browser.findElement(By.id("near-cache")).findElement(By.xpath(".//tbody/tr")).getText();
		assertThat(row).as("products: tracking, held, hits / misses / bypassed, invalidations, served locally")
			.matches("products tracking [\\d,]+ [\\d,]+ / [\\d,]+ / [\\d,]+ [\\d,]+ [\\d.]+ %");
	}

	@Test
	void theDashboardShowsItsChartsAndTheButtonRunsTheComparison() throws Exception {
		this.browser.get("http://localhost:" + this.port + "/");
		assertThat(this.browser.getTitle()).isEqualTo("Slipcase savings");
		// one Slipcase bar per cache and per namespace, each with a size on the page
		assertThat(barsDrawn("cache-chart")).isEqualTo(2);
		assertThat(barsDrawn("namespace-chart")).isEqualTo(2);
		assertThat(this.browser.findElement(By.id("caches")).getText()).contains("products", "categories");
		assertThat(this.browser.findElement(By.id("comparison-ratio")).getText()).isEqualTo("–");

		this.browser.findElement(By.id("run-comparison")).click();
		new WebDriverWait(this.browser, Duration.ofSeconds(60))
			.until((page) -> !page.findElement(By.id("comparison-ratio")).getText().equals("–"));
		String ratio = this.browser.findElement(By.id("comparison-ratio")).getText();
		assertThat(ratio).endsWith("×");
		assertThat(Double.parseDouble(ratio.substring(0, ratio.length() - 1))).isGreaterThan(1.5);
		assertThat(this.browser.findElement(By.id("comparison-keys")).getText()).isEqualTo("10,000");
		assertThat(this.browser.findElement(By.id("comparison-status")).getText()).startsWith("done on Redis");
		new WebDriverWait(this.browser, Duration.ofSeconds(10)).until((page) -> Boolean.TRUE.equals(script(
				"const image = document.getElementById('comparison-chart-image');"
						+ " return image.complete && image.naturalWidth > 0 && image.src.includes('at=');")));

		List<LogEntry> errors = this.browser.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.WARNING.intValue())
			.toList();
		assertThat(errors).as("the browser console").isEmpty();

		script("window.scrollTo(0, 0);");
		File screenshot = this.browser.getScreenshotAs(OutputType.FILE);
		Files.copy(screenshot.toPath(), Path.of("target", "dashboard.png"), StandardCopyOption.REPLACE_EXISTING);
	}

	/**
	 * The Slipcase bars of a chart that the browser laid out with a width and a height, checking
	 * that together they are shorter than the plain bars (Slipcase's values are the smaller ones).
	 */
	private long barsDrawn(String chart) {
		String heights = "(fill) => Array.from(document.querySelectorAll('#" + chart + " rect'))"
				+ ".filter((bar) => (bar.getAttribute('style') || '').replace(/ /g, '').includes('fill:' + fill))"
				+ ".map((bar) => bar.getBBox()).filter((box) => box.width > 0 && box.height > 0).map((box) => box.height)";
		@SuppressWarnings("unchecked")
		List<Number> slipcase = (List<Number>) script("return (" + heights + ")('" + SLIPCASE_FILL + "');");
		@SuppressWarnings("unchecked")
		List<Number> plain = (List<Number>) script("return (" + heights + ")('" + PLAIN_FILL + "');");
		assertThat(plain).as("plain bars of " + chart).hasSameSizeAs(slipcase);
		assertThat(slipcase.stream().mapToDouble(Number::doubleValue).sum())
			.as("Slipcase's bars of " + chart + " against the plain ones")
			.isLessThan(plain.stream().mapToDouble(Number::doubleValue).sum());
		return slipcase.size();
	}

	private Object script(String code) {
		return ((JavascriptExecutor) this.browser).executeScript(code);
	}

}
