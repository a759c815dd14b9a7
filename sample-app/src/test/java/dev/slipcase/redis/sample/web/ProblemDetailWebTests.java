package dev.slipcase.redis.sample.web;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;

import dev.slipcase.redis.sample.SampleWebTests;
import dev.slipcase.redis.sample.document.Documents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every error the sample app answers is an RFC 9457 problem detail saying what was wrong and what
 * is valid, over real HTTP (the JDK's client, and a raw socket where a client library would
 * rewrite the request); uploads store the body whatever its content type, and refuse what they
 * cannot take with a problem.
 */
class ProblemDetailWebTests extends SampleWebTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void anUnknownProductNamesTheValidIds() throws Exception {
		JsonNode problem = problem(get("/products/999999"), 404);
		assertThat(problem.get("detail").asString()).isEqualTo("No product 999999: product ids run from 1 to 450");
	}

	@Test
	void aProductIdThatIsNoNumberSaysWhatAnIdIsWithoutTheParsersText() throws Exception {
		JsonNode problem = problem(get("/products/abc"), 400);
		assertThat(problem.get("detail").asString()).isEqualTo("'id' must be a whole number, was 'abc'");
		assertThat(problem.toString()).doesNotContain("For input string").doesNotContain("Exception");
	}

	@Test
	void anUnknownCategoryNamesTheCategories() throws Exception {
		JsonNode problem = problem(get("/categories/garden"), 404);
		assertThat(problem.get("detail").asString())
			.isEqualTo("No category 'garden': the categories are books, music, games");
	}

	@Test
	void anUnknownFlagNamesTheFlags() throws Exception {
		HttpResponse<String> response = this.http.send(request("/products/1/flags/nope?on=true")
			.PUT(BodyPublishers.noBody())
			.build(), BodyHandlers.ofString());
		assertThat(problem(response, 400).get("detail").asString()).startsWith("Unknown flag 'nope', expected one of [");
	}

	@Test
	void aFlagValueThatIsNoBooleanSaysSo() throws Exception {
		HttpResponse<String> response = this.http.send(request("/products/1/flags/featured?on=maybe")
			.PUT(BodyPublishers.noBody())
			.build(), BodyHandlers.ofString());
		assertThat(problem(response, 400).get("detail").asString()).isEqualTo("'on' must be true or false, was 'maybe'");
	}

	@Test
	void anUnknownPathIsAProblemToo() throws Exception {
		problem(get("/no-such-page"), 404);
	}

	@Test
	void aMissingDocumentSaysHowToStoreOne() throws Exception {
		assertThat(problem(get("/documents/nothing-here"), 404).get("detail").asString())
			.isEqualTo("No document 'nothing-here'; store one with PUT /documents/nothing-here");
	}

	@Test
	void anEncodedSlashInADocumentNameIsAProblemNotTomcatsErrorPage() throws Exception {
		RawResponse response = raw("GET /documents/a%2Fb HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", null);
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.head()).containsIgnoringCase("Content-Type: application/problem+json");
		assertThat(JSON.readTree(response.body()).get("detail").asString())
			.isEqualTo("A document name is 1 to 100 letters, digits, '.', '_' or '-', was 'a/b'");
	}

	@Test
	void anUnknownActuatorNamespaceNamesTheNamespaces() throws Exception {
		JsonNode problem = problem(get("/actuator/slipcase/nope"), 404);
		assertThat(problem.get("detail").asString())
			.isEqualTo("No sharded namespace 'nope'; the namespaces are feature-flags, memory-demo, product-views");
		assertThat(get("/actuator/slipcase/product-views").statusCode()).isEqualTo(200);
	}

	@Test
	void aBadMemoryComparisonSizeIsAProblem() throws Exception {
		HttpResponse<String> response = this.http.send(request("/memory-comparison?keys=0")
			.POST(BodyPublishers.noBody())
			.build(), BodyHandlers.ofString());
		assertThat(problem(response, 400).get("detail").asString()).contains("keys");
	}

	/** What curl sends: its default (a form), and each type users give with -H, and none (-T). */
	@ParameterizedTest
	@ValueSource(strings = { "application/x-www-form-urlencoded", "application/octet-stream", "text/plain",
			"application/json", "text/csv", "image/png", "" })
	void anUploadStoresTheBodyWhateverItsContentType(String contentType) throws Exception {
		byte[] content = new byte[200_000];
		new Random(contentType.hashCode()).nextBytes(content);
		// bytes that are no valid form encoding: a form decoder threw on them (500) or ate them (200, nothing stored)
		System.arraycopy("a=%zz&b".getBytes(StandardCharsets.US_ASCII), 0, content, 0, 7);
		String name = "upload-" + (contentType.isEmpty() ? "none" : contentType.replace('/', '-'));
		HttpRequest.Builder upload = request("/documents/" + name).PUT(BodyPublishers.ofByteArray(content));
		if (!contentType.isEmpty()) {
			upload.header("Content-Type", contentType);
		}
		assertThat(this.http.send(upload.build(), BodyHandlers.ofString()).statusCode()).isEqualTo(204);
		HttpResponse<byte[]> download = this.http.send(request("/documents/" + name).GET().build(),
				BodyHandlers.ofByteArray());
		assertThat(download.statusCode()).isEqualTo(200);
		assertThat(download.body()).isEqualTo(content);
		assertThat(redis().command("STRLEN", Documents.key(name))).isEqualTo((long) content.length);
	}

	@Test
	void aChunkedUploadIsRefusedWithTheReasonAndStoresNothing() throws Exception {
		HttpRequest chunked = request("/documents/chunked")
			.PUT(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(new byte[10_000])))
			.build();
		HttpResponse<String> response = this.http.send(chunked, BodyHandlers.ofString());
		assertThat(problem(response, 411).get("detail").asString())
			.startsWith("Send the document with a Content-Length (a chunked upload has none)");
		assertThat(redis().command("EXISTS", Documents.key("chunked"))).isEqualTo(0L);
	}

	@Test
	void anUploadOverTheLimitIsRefusedBeforeItsBodyIsRead() throws Exception {
		RawResponse response = raw("PUT /documents/huge HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
				+ "Content-Length: 40000000\r\nConnection: close\r\n\r\n", new byte[1024]);
		assertThat(response.status()).isEqualTo(413);
		assertThat(JSON.readTree(response.body()).get("detail").asString())
			.isEqualTo("A document is at most 33554432 bytes; this one has 40000000");
		assertThat(redis().command("EXISTS", Documents.key("huge"))).isEqualTo(0L);
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path));
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(request(path).GET().build(), BodyHandlers.ofString());
	}

	/** Checks the response is a problem detail with {@code status}, and returns it. */
	private static JsonNode problem(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = JSON.readTree(response.body());
		assertThat(problem.get("status").asInt()).isEqualTo(status);
		assertThat(problem.get("title").asString()).isNotBlank();
		assertThat(problem.has("detail")).as(response.body()).isTrue();
		assertThat(response.body()).doesNotContain("\tat ").doesNotContain("trace");
		return problem;
	}

	/** Sends {@code head} (and {@code body}) as they are, and reads the whole response. */
	private RawResponse raw(String head, byte[] body) throws IOException {
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(head.getBytes(StandardCharsets.US_ASCII));
			if (body != null) {
				out.write(body);
			}
			out.flush();
			InputStream in = socket.getInputStream();
			// read the response, not until the connection closes: Tomcat may keep it open to drain
			// a request body it never read
			ByteArrayOutputStream received = new ByteArrayOutputStream();
			while (!complete(received.toString(StandardCharsets.UTF_8))) {
				int next = in.read();
				if (next == -1) {
					break;
				}
				received.write(next);
			}
			String response = received.toString(StandardCharsets.UTF_8);
			int split = response.indexOf("\r\n\r\n");
			String responseHead = response.substring(0, split);
			String responseBody = response.substring(split + 4);
			if (isChunked(responseHead)) {
				responseBody = unchunk(responseBody);
			}
			int status = Integer.parseInt(responseHead.substring(9, 12));
			return new RawResponse(status, responseHead, responseBody);
		}
	}

	/** Whether {@code response} holds a whole HTTP response: its head, then its body by length or chunks. */
	private static boolean complete(String response) {
		int split = response.indexOf("\r\n\r\n");
		if (split < 0) {
			return false;
		}
		String head = response.substring(0, split);
		String body = response.substring(split + 4);
		if (isChunked(head)) {
			return body.endsWith("0\r\n\r\n");
		}
		for (String line : head.split("\r\n")) {
			if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
				return body.length() >= Integer.parseInt(line.substring(15).trim());
			}
		}
		return false;
	}

	private static boolean isChunked(String head) {
		return head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked");
	}

	private static String unchunk(String chunked) {
		StringBuilder body = new StringBuilder();
		int at = 0;
		while (true) {
			int lineEnd = chunked.indexOf("\r\n", at);
			int size = Integer.parseInt(chunked.substring(at, lineEnd).trim(), 16);
			if (size == 0) {
				return body.toString();
			}
			body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
			at = lineEnd + 2 + size + 2;
		}
	}

	private record RawResponse(int status, String head, String body) {
	}

}
