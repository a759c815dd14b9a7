package dev.slipcase.redis.sample;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app's context starts.
 */
@SpringBootTest
class SampleApplicationTests {

	@Autowired
	private ApplicationContext context;

	@Test
	void contextStarts() {
		assertThat(this.context.getBean(SampleApplication.class)).isNotNull();
	}

}
