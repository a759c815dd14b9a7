package dev.slipcase.redis.sample.document;

import java.io.IOException;
import java.util.regex.Pattern;

import dev.slipcase.redis.sample.web.NotFoundException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code GET /documents/{name}} streams a stored document to the response from a leased pooled
 * buffer; {@code PUT /documents/{name}} streams the request body into Redis in chunks, whatever
 * its content type (the body is the document: no form decoding). Neither builds the document as a
 * {@code byte[]}. Names are checked, uploads need a {@code Content-Length} (411 otherwise) and
 * are capped ({@code sample.documents.max-size}, 413 above it); every refusal is a problem
 * detail saying what is accepted.
 */
@RestController
class DocumentController {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

	private final Documents documents;

	private final long maxSize;

	DocumentController(Documents documents, DocumentProperties properties) {
		this.documents = documents;
		this.maxSize = properties.maxSize().toBytes();
	}

	@GetMapping("/documents/{name}")
	void download(@PathVariable String name, HttpServletResponse response) throws IOException {
		requireName(name);
		boolean found = this.documents.streamTo(name, (size) -> {
			response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
			response.setContentLength(size);
			return response.getOutputStream();
		});
		if (!found) {
			throw new NotFoundException("No document '" + name + "'; store one with PUT /documents/" + name);
		}
	}

	@PutMapping("/documents/{name}")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void upload(@PathVariable String name, HttpServletRequest request) throws IOException {
		requireName(name);
		long length = request.getContentLengthLong();
		if (length < 0) {
			throw new ResponseStatusException(HttpStatus.LENGTH_REQUIRED,
					"Send the document with a Content-Length (a chunked upload has none), at most " + this.maxSize
							+ " bytes");
		}
		if (length > this.maxSize) {
			throw new ResponseStatusException(HttpStatus.CONTENT_TOO_LARGE,
					"A document is at most " + this.maxSize + " bytes; this one has " + length);
		}
		this.documents.upload(name, request.getInputStream(), length);
	}

	private static void requireName(String name) {
		if (!NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("A document name is 1 to 100 letters, digits, '.', '_' or '-', was '"
					+ name + "'");
		}
	}

}
