import { describe, expect, it } from "vitest";
import {
  monthKey,
  nextMonthStartSeconds,
  resetForLog,
  resetForWeightedWindow,
  weightedCount,
} from "@/lib/ratelimit/time";

describe("month arithmetic (UTC)", () => {
  it.each([
    [Date.UTC(2025, 11, 31, 23, 59, 59, 999), "2025-12", Date.UTC(2026, 0, 1)],
    [Date.UTC(2026, 0, 1, 0, 0, 0), "2026-01", Date.UTC(2026, 1, 1)],
    [Date.UTC(2028, 1, 29, 12), "2028-02", Date.UTC(2028, 2, 1)],
    [Date.UTC(2026, 5, 30, 23, 0), "2026-06", Date.UTC(2026, 6, 1)],
  ])("%s -> %s", (now, key, next) => {
    expect(monthKey(now)).toBe(key);
    expect(nextMonthStartSeconds(now)).toBe(next / 1000);
  });
});

describe("resetForLog", () => {
  it("is now + window with nothing counted, else when the oldest counted request leaves", () => {
    expect(resetForLog([], 10, 60_000, 1_000)).toBe(61);
    expect(resetForLog([500, 900], 10, 60_000, 1_000)).toBe(61); // 60.5 s rounded up
    expect(resetForLog([2_000, 3_000], 2, 60_000, 5_000)).toBe(62);
  });
});

/**
 * Brute force over the algorithm of @upstash/ratelimit's slidingWindow: the reset we announce must be the
 * first whole second at which a request is admitted again (for a refusal) or the weighted count has dropped
 * (for an allowed request), assuming nobody else spends in between.
 */
describe("resetForWeightedWindow agrees with the weighted two-bucket formula", () => {
  const windowMs = 10_000;
  const limit = 5;
  function usedAt(t: number, bucket: number, current: number, previous: number): number {
    const b = Math.floor(t / windowMs);
    if (b === bucket) return weightedCount(current, previous, windowMs, t);
    if (b === bucket + 1) return weightedCount(0, current, windowMs, t);
    return 0;
  }
  it("for every count combination and a spread of instants", () => {
    for (let current = 0; current <= limit; current++) {
      for (let previous = 0; previous <= limit; previous++) {
        for (const offset of [0, 1, 999, 1000, 3333, 5000, 7777, 9999]) {
          const bucket = 7;
          const now = bucket * windowMs + offset;
          const used = usedAt(now, bucket, current, previous);
          if (used > limit) continue; // unreachable: the script never lets it exceed the limit
          const reset = resetForWeightedWindow(current, previous, limit, windowMs, now);
          expect(Number.isInteger(reset)).toBe(true);
          expect(reset * 1000).toBeGreaterThan(now);
          const target = Math.min(used, limit);
          if (used === 0) {
            expect(reset).toBe(Math.ceil((now + windowMs) / 1000));
            continue;
          }
          // At Reset it holds, and Reset is at most one second late: two seconds earlier it did not hold.
          // (Not "exactly the first second": when the exact instant is a whole second, floating point can
          // let the Lua script admit at that very millisecond, and we round up past it.)
          const context = JSON.stringify({ current, previous, offset, reset });
          expect(usedAt(reset * 1000, bucket, current, previous), context).toBeLessThan(target);
          if ((reset - 2) * 1000 > now) {
            expect(usedAt((reset - 2) * 1000, bucket, current, previous), context).toBeGreaterThanOrEqual(target);
          }
        }
      }
    }
  });
});
