package dev.slipcase.redis.adoption;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/** An existing shop app that caches with {@code @Cacheable}; it adds Slipcase's starter and nothing else. */
@SpringBootApplication
@EnableCaching
public class ShopApp {

}
