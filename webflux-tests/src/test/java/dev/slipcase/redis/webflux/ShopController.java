package dev.slipcase.redis.webflux;

import java.security.Principal;

import dev.slipcase.redis.template.ReactiveValueTemplate;
import dev.slipcase.redis.template.ValueTemplates;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.WebSession;

/** The shop's endpoints: a cached product, the logged-in user, and files streamed through Redis. */
@RestController
class ShopController {

	private final ProductCatalog catalog;

	private final ReactiveValueTemplate<String> files;

	ShopController(ProductCatalog catalog, ValueTemplates valueTemplates) {
		this.catalog = catalog;
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

	@PutMapping("/files/{name}")
	Mono<Void> upload(@PathVariable String name, @RequestBody Flux<DataBuffer> body) {
		return this.files.upload("file:" + name, body);
	}

	@GetMapping(path = "/files/{name}", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	Flux<DataBuffer> download(@PathVariable String name) {
		return this.files.download("file:" + name);
	}

}
