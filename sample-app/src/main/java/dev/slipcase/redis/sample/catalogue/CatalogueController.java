package dev.slipcase.redis.sample.catalogue;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /products/{id}} (cached product, view counted, flags),
 * {@code GET /categories/{name}} (cached listing) and
 * {@code PUT /products/{id}/flags/{flag}?on=true}.
 */
@RestController
class CatalogueController {

	private final Catalogue catalogue;

	private final ProductActivity activity;

	CatalogueController(Catalogue catalogue, ProductActivity activity) {
		this.catalogue = catalogue;
		this.activity = activity;
	}

	@GetMapping("/products/{id}")
	ProductView product(@PathVariable long id) {
		Product product = this.catalogue.product(id);
		long views = this.activity.viewed(id);
		return new ProductView(product, views, this.activity.flags(id));
	}

	@GetMapping("/categories/{name}")
	CategoryListing category(@PathVariable String name) {
		return this.catalogue.category(name);
	}

	@PutMapping("/products/{id}/flags/{flag}")
	Map<String, Boolean> setFlag(@PathVariable long id, @PathVariable String flag, @RequestParam boolean on) {
		this.catalogue.product(id);
		this.activity.setFlag(id, flag, on);
		return this.activity.flags(id);
	}

}
