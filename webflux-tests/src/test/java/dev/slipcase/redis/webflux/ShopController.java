package dev.slipcase.redis.webflux;

import java.security.Principal;

import dev.slipcase.redis.sharded.ReactiveShardedTemplate;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.template.ReactiveValueTemplate;
import dev.slipcase.redis.template.ValueTemplates;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.WebSession;

/**
 * The shop's endpoints: a cached product, its view counter (a sharded namespace), the logged-in
 * user, and files streamed through Redis.
 */
@RestController
class ShopController {

	private final ProductCatalog catalog;

	private final ReactiveValueTemplate<String> files;

	private final ReactiveShardedTemplate<Long> pageViews;

	ShopController(ProductCatalog catalog, ValueTemplates valueTemplates, ShardedTemplate<Long> pageViews) {
		this.catalog = catalog;
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

	@PutMapping("/files/{name}")
	Mono<Void> upload(@PathVariable String name, @RequestBody Flux<DataBuffer> body) {
		return this.files.upload("file:" + name, body);
	}

	@GetMapping(path = "/files/{name}", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	Flux<DataBuffer> download(@PathVariable String name) {
		return this.files.download("file:" + name);
	}

}
