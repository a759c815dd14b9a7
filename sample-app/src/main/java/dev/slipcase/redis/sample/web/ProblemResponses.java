package dev.slipcase.redis.sample.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * One error shape for the whole app: an RFC 9457 {@link ProblemDetail}
 * ({@code application/problem+json}) whose {@code detail} says what was wrong and what is valid.
 * Spring MVC's own exceptions (unknown path, wrong method, unsupported media type...) get Spring's
 * problem details; the app's exceptions carry messages written for the caller; a value that does
 * not convert names the parameter and the expected form; anything else is a 500 whose body says
 * only that the server failed (the exception goes to the log, never to the client).
 */
@RestControllerAdvice
class ProblemResponses extends ResponseEntityExceptionHandler {

	private static final Log logger = LogFactory.getLog(ProblemResponses.class);

	/** A request the app refuses, with a message for the caller: 400. */
	@ExceptionHandler(IllegalArgumentException.class)
	ProblemDetail badRequest(IllegalArgumentException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
	}

	/** Something the app has not got, with a message naming what it has: 404. */
	@ExceptionHandler(NotFoundException.class)
	ProblemDetail notFound(NotFoundException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
	}

	/** A request the app cannot take now, such as a second memory comparison at once: 409. */
	@ExceptionHandler(ConflictException.class)
	ProblemDetail conflict(ConflictException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
	}

	/** Anything unexpected: logged here, a body without the exception's text for the client. */
	@ExceptionHandler(Exception.class)
	ProblemDetail unexpected(Exception ex) {
		logger.error("Request failed", ex);
		return ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
				"The server failed to answer this request; the cause is in the server's log.");
	}

	/** {@code /products/abc}: names the parameter and the form it takes, not the parser's text. */
	@Override
	protected @Nullable ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
			HttpStatusCode status, WebRequest request) {
		String name = (ex instanceof MethodArgumentTypeMismatchException mismatch) ? mismatch.getName()
				: String.valueOf(ex.getPropertyName());
		Class<?> required = ex.getRequiredType();
		String form = (required == long.class || required == Long.class || required == int.class
				|| required == Integer.class) ? "a whole number"
						: (required == boolean.class || required == Boolean.class) ? "true or false"
								: "a " + ((required != null) ? required.getSimpleName() : "value");
		ProblemDetail body = ProblemDetail.forStatusAndDetail(status,
				"'" + name + "' must be " + form + ", was '" + ex.getValue() + "'");
		return handleExceptionInternal(ex, body, headers, status, request);
	}

}
