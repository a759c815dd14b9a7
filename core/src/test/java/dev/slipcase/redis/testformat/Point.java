package dev.slipcase.redis.testformat;

/** A fixed-size record for {@link PointFormat}. Test only. */
public record Point(long x, long y, int tag) {

}
