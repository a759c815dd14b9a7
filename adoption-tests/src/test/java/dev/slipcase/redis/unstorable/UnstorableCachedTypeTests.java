package dev.slipcase.redis.unstorable;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * An app whose cached method returns a type no format can read back fails at start-up, with
 * Boot's failure report naming the method, the type and the property that fixes it, not at the
 * first call.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnstorableCachedTypeTests {

	private static final RedisServer redis = RedisServers.shared();

	@Test
	void startUpFailsNamingTheMethodTheTypeAndTheProperty(CapturedOutput output) {
		SpringApplication application = new SpringApplication(ShapeApp.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--spring.data.redis.host=" + redis.endpoint().host(),
				"--spring.data.redis.port=" + redis.endpoint().port()).close());
		assertThat(output.getOut()).contains("APPLICATION FAILED TO START")
			.contains("Cached method ShapeService.shape(long) stores dev.slipcase.redis.unstorable."
					+ "UnstorableCachedTypeTests$Shape in cache 'shapes', which Slipcase cannot store")
			.contains("is an interface and no allowed value type implements it")
			.contains("slipcase.redis.types.<id>.type");
	}

	/** A shape: an interface, with no implementation Slipcase was told about. */
	public interface Shape {

		double area();

	}

	/** A circle, which the app never declares to Slipcase. */
	public record Circle(double radius) implements Shape {

		@Override
		public double area() {
			return Math.PI * this.radius * this.radius;
		}

	}

	/** Caches shapes by their interface. */
	public static class ShapeService {

		@Cacheable("shapes")
		public Shape shape(long id) {
			return new Circle(id);
		}

	}

	@SpringBootApplication
	@EnableCaching
	static class ShapeApp {

		@Bean
		ShapeService shapeService() {
			return new ShapeService();
		}

	}

}
