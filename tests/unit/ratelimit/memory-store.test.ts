import { describe, expect, it } from "vitest";
import { createLimiter, rateLimitHeaders, type LimitResult } from "@/lib/ratelimit";

const config = {
  RATE_LIMIT_PER_MINUTE: 10,
  DEMO_URL_MONTHLY_BUDGET: 3,
  UPSTASH_REDIS_REST_URL: undefined,
  UPSTASH_REDIS_REST_TOKEN: undefined,
};

/** A clock the test moves by hand. */
function manualClock(start: number) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms), set: (ms: number) => (now = ms) };
}

function show(result: LimitResult): string {
  return JSON.stringify(result);
}

describe("in-process per-IP sliding window", () => {
  it("allows 10 with remaining 9..0, refuses the 11th with a usable Reset and Retry-After", async () => {
    const clock = manualClock(Date.UTC(2026, 4, 10, 12, 0, 0, 250));
    const limiter = createLimiter(config, { now: clock.now });
    expect(limiter.backend).toBe("memory");

    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await limiter.checkRequest("203.0.113.7");
      expect(result.allowed, show(result)).toBe(true);
      remaining.push(result.remaining);
      clock.advance(1000);
    }
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

    const refused = await limiter.checkRequest("203.0.113.7");
    expect(refused, show(refused)).toMatchObject({ allowed: false, limit: 10, remaining: 0, reason: "ip" });
    const nowSeconds = clock.now() / 1000;
    expect(Number.isInteger(refused.reset)).toBe(true);
    expect(refused.reset).toBeGreaterThan(nowSeconds);
    expect(refused.reset).toBeLessThanOrEqual(nowSeconds + 60);
    // The oldest request was at 12:00:00.250, so room comes back at 12:01:00.250 -> whole second 12:01:01.
    expect(refused.reset).toBe(Date.UTC(2026, 4, 10, 12, 1, 1) / 1000);

    const headers = rateLimitHeaders(refused, clock.now());
    expect(headers).toMatchObject({
      "X-RateLimit-Limit": "10",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(refused.reset),
    });
    const retryAfter = Number(headers["Retry-After"]);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(clock.now() + retryAfter * 1000).toBeGreaterThanOrEqual(refused.reset * 1000);

    // Another client is unaffected.
    expect((await limiter.checkRequest("198.51.100.1")).remaining).toBe(9);
  });

  it("a client that waits until Reset succeeds, and the window slides one request at a time", async () => {
    const clock = manualClock(Date.UTC(2026, 4, 10, 12, 0, 0));
    const limiter = createLimiter(config, { now: clock.now });
    for (let i = 0; i < 10; i++) {
      await limiter.checkRequest("k");
      clock.advance(2000); // requests at 0 s, 2 s, ... 18 s
    }
    const refused = await limiter.checkRequest("k");
    expect(refused.allowed).toBe(false);

    clock.set(refused.reset * 1000 - 1);
    expect((await limiter.checkRequest("k")).allowed, "one ms before Reset is still full").toBe(false);
    clock.set(refused.reset * 1000);
    const again = await limiter.checkRequest("k");
    expect(again, show(again)).toMatchObject({ allowed: true, remaining: 0 });
    // Only the 0 s request left; the 2 s one leaves at 62 s.
    expect(again.reset).toBe(Date.UTC(2026, 4, 10, 12, 1, 2) / 1000);
    expect((await limiter.checkRequest("k")).allowed).toBe(false);

    clock.set(Date.UTC(2026, 4, 10, 12, 5, 0));
    const fresh = await limiter.checkRequest("k");
    expect(fresh.remaining).toBe(9);
  });

  it("refused requests are not counted, so hammering does not extend the lockout", async () => {
    const clock = manualClock(0);
    const limiter = createLimiter(config, { now: clock.now });
    for (let i = 0; i < 10; i++) await limiter.checkRequest("k");
    let last: LimitResult | undefined;
    for (let i = 0; i < 60; i++) {
      clock.advance(1000);
      last = await limiter.checkRequest("k");
    }
    expect(last?.allowed).toBe(true);
  });

  it("peek reports without consuming", async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    const limiter = createLimiter(config, { now: clock.now });
    const empty = await limiter.peekRequest("k");
    expect(empty).toMatchObject({ allowed: true, limit: 10, remaining: 10, reason: "ip" });
    expect(empty.reset).toBe(Date.UTC(2026, 0, 1, 0, 1, 1) / 1000); // now + window, rounded up
    for (let i = 0; i < 10; i++) await limiter.checkRequest("k");
    for (let i = 0; i < 5; i++) expect(await limiter.peekRequest("k")).toMatchObject({ allowed: false, remaining: 0 });
    clock.advance(60_000);
    expect(await limiter.peekRequest("k")).toMatchObject({ allowed: true, remaining: 10 });
  });
});

describe("in-process monthly URL budget", () => {
  it("allows up to N, refuses N+1 with reset at the next month start, across Dec -> Jan", async () => {
    const clock = manualClock(Date.UTC(2025, 11, 31, 23, 59, 58));
    const limiter = createLimiter(config, { now: clock.now });
    const nextJanuary = Date.UTC(2026, 0, 1) / 1000;
    const results: LimitResult[] = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.consumeBudget());
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    for (const r of results) expect(r, show(r)).toMatchObject({ limit: 3, reset: nextJanuary, reason: "budget" });

    const headers = rateLimitHeaders(results[3]!, clock.now());
    expect(headers).toMatchObject({
      "X-RateLimit-Limit": "3",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(nextJanuary),
      "Retry-After": "2",
    });

    clock.set(Date.UTC(2026, 0, 1, 0, 0, 0));
    const january = await limiter.consumeBudget();
    expect(january, show(january)).toMatchObject({ allowed: true, remaining: 2, reset: Date.UTC(2026, 1, 1) / 1000 });
  });

  it("a budget of 0 refuses every URL-mode request", async () => {
    const limiter = createLimiter({ ...config, DEMO_URL_MONTHLY_BUDGET: 0 }, { now: () => Date.UTC(2026, 1, 14) });
    expect(await limiter.consumeBudget()).toMatchObject({
      allowed: false,
      limit: 0,
      remaining: 0,
      reset: Date.UTC(2026, 2, 1) / 1000,
    });
  });
});
