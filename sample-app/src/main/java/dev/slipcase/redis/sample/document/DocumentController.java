package dev.slipcase.redis.sample.document;

import java.io.IOException;

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
 * buffer; {@code PUT /documents/{name}} streams the request body into Redis in chunks. Neither
 * builds the document as a {@code byte[]}.
 */
@RestController
class DocumentController {

	private final Documents documents;

	DocumentController(Documents documents) {
		this.documents = documents;
	}

	@GetMapping("/documents/{name}")
	void download(@PathVariable String name, HttpServletResponse response) throws IOException {
		boolean found = this.documents.streamTo(name, (size) -> {
			response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
			response.setContentLength(size);
			return response.getOutputStream();
		});
		if (!found) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No document " + name);
		}
	}

	@PutMapping("/documents/{name}")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void upload(@PathVariable String name, HttpServletRequest request) throws IOException {
		long length = request.getContentLengthLong();
		if (length < 0) {
			throw new ResponseStatusException(HttpStatus.LENGTH_REQUIRED, "Send the document with a Content-Length");
		}
		this.documents.upload(name, request.getInputStream(), length);
	}

}
