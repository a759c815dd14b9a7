package dev.slipcase.redis.webflux;

import java.security.Principal;

import dev.slipcase.redis.sharded.ReactiveShardedTemplate;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.template.ReactiveValueTemplate;
import dev.slipcase.redis.template.ValueTemplates;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.WebSession;

/**
 * The shop's endpoints: a cached product, its view counter (a sharded namespace), the logged-in
 * user, and files streamed through Redis, answered as a controller would: a length, a 404 problem.
 */
@RestController
class ShopController {

	private static final Log logger = LogFactory.getLog(ShopController.class);

	private final ProductCatalog catalog;

	private final ReactiveValueTemplate<String> files;

	private final ReactiveShardedTemplate<Long> pageViews;

	private final ReactiveRedisTemplate<String, Object> objects;

	ShopController(ProductCatalog catalog, ValueTemplates valueTemplates, ShardedTemplate<Long> pageViews,
			@Qualifier("slipcaseReactiveRedisTemplate") ReactiveRedisTemplate<String, Object> objects) {
		this.catalog = catalog;
		this.objects = objects;
		this.pageViews = pageViews.reactive();
		// upload and download move raw bytes: the template's value type plays no part
		this.files = valueTemplates.forType(String.class).reactive();
	}

	@GetMapping("/products/{id}")
	Mono<Product> product(@PathVariable long id) {
		return this.catalog.product(id);
	}

	@GetMapping("/me")
	Mono<String> me(Principal principal, WebSession session) {
		int visits = session.getAttributeOrDefault("visits", 0) + 1;
		session.getAttributes().put("visits", visits);
		return Mono.just(principal.getName() + " " + visits);
	}

	@PostMapping("/products/{id}/views")
	Mono<Long> viewed(@PathVariable long id) {
		return this.pageViews.incrBy("views:" + id, 1);
	}

	@GetMapping("/products/{id}/views")
	Mono<Long> views(@PathVariable long id) {
		return this.pageViews.get("views:" + id).defaultIfEmpty(0L);
	}

	/** A like, counted by the Object template's increment: the new count. */
	@PostMapping("/products/{id}/likes")
	Mono<Long> liked(@PathVariable long id) {
		return this.objects.opsForValue().increment("likes:" + id);
	}

	/** The likes, read back by the Object template as the Long its increment wrote. */
	@GetMapping("/products/{id}/likes")
	Mono<Long> likes(@PathVariable long id) {
		return this.objects.opsForValue().get("likes:" + id).cast(Long.class).defaultIfEmpty(0L);
	}

	/** Appends a line to the product's notes; their new length. */
	@PostMapping("/products/{id}/notes")
	Mono<Long> note(@PathVariable long id, @RequestBody String line) {
		return this.objects.opsForValue().append("notes:" + id, line + "\n");
	}

	/** The notes, read back by the Object template as the String its appends wrote. */
	@GetMapping("/products/{id}/notes")
	Mono<String> notes(@PathVariable long id) {
		return this.objects.opsForValue().get("notes:" + id).cast(String.class);
	}

	@PutMapping("/files/{name}")
	Mono<Void> upload(@PathVariable String name, @RequestBody Flux<DataBuffer> body) {
		return this.files.upload("file:" + name, body);
	}

	/**
	 * The file's bytes with their length, a 404 problem when there is none: both known from the
	 * first round trip to Redis. A HEAD request gets the length alone: WebFlux would read the
	 * body to discard it.
	 */
	@GetMapping("/files/{name}")
	Mono<ResponseEntity<Flux<DataBuffer>>> download(@PathVariable String name, ServerHttpRequest request) {
		return this.files.openDownload("file:" + name)
			.flatMap((download) -> {
				ResponseEntity.BodyBuilder ok = ResponseEntity.ok()
					.contentType(MediaType.APPLICATION_OCTET_STREAM)
					.contentLength(download.length());
				return HttpMethod.HEAD.equals(request.getMethod())
						? download.discard().thenReturn(ok.body(Flux.<DataBuffer>empty()))
						: Mono.just(ok.body(download.content()));
			})
			.switchIfEmpty(Mono.error(() -> new ErrorResponseException(HttpStatus.NOT_FOUND,
					ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "No file named '" + name + "'"), null)));
	}

	@ExceptionHandler
	ProblemDetail problem(ErrorResponseException ex) {
		return ex.getBody();
	}

	/** Redis failed or holds something else under the file's key: the details are logged, not sent. */
	@ExceptionHandler
	ProblemDetail storeFailed(DataAccessException ex) {
		logger.warn("The file store failed", ex);
		return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, "The file store failed");
	}

}
