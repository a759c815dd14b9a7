package dev.slipcase.redis.autoconfigure.endpoint;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.sharded.BucketMemoryReport;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.util.MimeType;

/**
 * The {@code slipcase} endpoint over HTTP: {@code GET /actuator/slipcase/{namespace}} answers an
 * unknown namespace with a 404 whose body is an RFC 9457 problem detail
 * ({@code application/problem+json}) naming the namespaces there are, instead of an empty 404.
 */
@EndpointWebExtension(endpoint = SlipcaseEndpoint.class)
public class SlipcaseEndpointWebExtension {

	private static final MimeType PROBLEM_JSON = MimeType.valueOf("application/problem+json");

	private final SlipcaseEndpoint endpoint;

	public SlipcaseEndpointWebExtension(SlipcaseEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	/**
	 * A fresh memory report of one sharded namespace, or a 404 problem naming the namespaces.
	 * @param namespace the namespace's name
	 */
	@ReadOperation
	public WebEndpointResponse<Object> namespace(@Selector String namespace) {
		BucketMemoryReport report = this.endpoint.namespace(namespace);
		if (report != null) {
			return new WebEndpointResponse<>(report);
		}
		return new WebEndpointResponse<>(notFound(namespace, this.endpoint.namespaces()),
				WebEndpointResponse.STATUS_NOT_FOUND, PROBLEM_JSON);
	}

	private static Map<String, @Nullable Object> notFound(String namespace, List<String> namespaces) {
		Map<String, @Nullable Object> problem = new LinkedHashMap<>();
		problem.put("type", "about:blank");
		problem.put("title", "Not Found");
		problem.put("status", WebEndpointResponse.STATUS_NOT_FOUND);
		problem.put("detail", "No sharded namespace '" + namespace + "'; "
				+ (namespaces.isEmpty() ? "this application declares none"
						: "the namespaces are " + String.join(", ", namespaces)));
		problem.put("namespaces", namespaces);
		return problem;
	}

}
