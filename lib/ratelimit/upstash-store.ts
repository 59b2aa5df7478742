import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import type { Policies } from "./policies";
import { monthKey, nextMonthStartSeconds, resetForWeightedWindow, weightedCount } from "./time";
import type { LimitResult, LimitStore } from "./types";

/** The slice of an @upstash/redis client this store uses (a real client, or one pointed at a test bridge). */
export type UpstashRedis = Redis;

/**
 * An @upstash/redis client configured for rate limiting: no retries with back-off (the default retries five
 * times over ~4 s, far past any useful answer), and an abort signal per HTTP request so a hung connection is
 * actually cancelled rather than left open behind our own timeout.
 */
export function createUpstashRedis(options: { url: string; token: string; timeoutMs: number }): UpstashRedis {
  return new Redis({
    url: options.url,
    token: options.token,
    retry: false,
    // A function gives each request its own fresh timeout; a single AbortSignal would expire once for good.
    signal: () => AbortSignal.timeout(options.timeoutMs),
    enableTelemetry: false,
  });
}

/**
 * Shared store on Upstash Redis.
 *
 * Per-IP: `@upstash/ratelimit`'s slidingWindow, created once per store (the store is created once per
 * process, see limiter.ts). That algorithm approximates a sliding window with two fixed buckets, the previous
 * one weighted by its remaining overlap. Two deliberate settings:
 * - `timeout: 0`: its built-in timeout resolves as *allowed* ("no limits"); our resilient wrapper times out
 *   instead and falls back to the in-process store.
 * - `ephemeralCache: false`: the cache would keep refusing a key until the end of the current bucket, which
 *   can be later than the reset we announce, so a client that waited for `X-RateLimit-Reset` would be refused.
 * After each call one MGET of the two buckets gives the counts from which we compute a reset a client can
 * rely on (see `resetForWeightedWindow`); its own `reset` is the bucket end, too early.
 *
 * Budget: a plain `INCR` + `EXPIREAT` in one MULTI/EXEC on `linklens:budget:YYYY-MM`. A counter per month
 * key is exactly "per calendar month, UTC", which Ratelimit.fixedWindow cannot express (months differ in
 * length and its buckets are aligned to the epoch, not to month starts). Refused calls still increment;
 * harmless, as only `count <= limit` matters and the key expires after the month.
 */
export class UpstashStore implements LimitStore {
  private readonly ratelimit: Ratelimit;

  constructor(
    private readonly redis: UpstashRedis,
    private readonly policies: Policies,
    /** Clock for the budget month only; Ratelimit itself reads Date.now(), so the window uses it too. */
    private readonly now: () => number = Date.now,
  ) {
    const { ip } = policies;
    this.ratelimit = new Ratelimit({
      redis,
      limiter: Ratelimit.slidingWindow(ip.limit, `${ip.windowSeconds} s`),
      prefix: ip.prefix,
      timeout: 0,
      ephemeralCache: false,
      analytics: false,
      enableTelemetry: false,
    });
  }

  async checkRequest(clientKey: string): Promise<LimitResult> {
    const { ip } = this.policies;
    const response = await this.ratelimit.limit(clientKey);
    // Ratelimit's reset is the end of the bucket it used; deriving the bucket from it (not from our own
    // clock) reads exactly the keys the script just touched even across a bucket boundary.
    const windowMs = ip.windowSeconds * 1000;
    const bucket = Math.round(response.reset / windowMs) - 1;
    const counts = await this.bucketCounts(clientKey, bucket);
    const now = Math.max(Date.now(), bucket * windowMs);
    // If a bucket boundary passed since the script ran, its "current" is now the previous bucket.
    const shift = Math.floor(now / windowMs) - bucket;
    const current = shift === 0 ? counts.current : 0;
    const previous = shift === 0 ? counts.previous : shift === 1 ? counts.current : 0;
    return {
      allowed: response.success,
      limit: ip.limit,
      remaining: response.success ? Math.max(0, response.remaining) : 0,
      reset: resetForWeightedWindow(current, previous, ip.limit, windowMs, now),
      reason: "ip",
    };
  }

  async peekRequest(clientKey: string): Promise<LimitResult> {
    const { ip } = this.policies;
    const windowMs = ip.windowSeconds * 1000;
    const now = Date.now();
    const { current, previous } = await this.bucketCounts(clientKey, Math.floor(now / windowMs));
    const used = weightedCount(current, previous, windowMs, now);
    return {
      allowed: used < ip.limit,
      limit: ip.limit,
      remaining: Math.max(0, ip.limit - used),
      reset: resetForWeightedWindow(current, previous, ip.limit, windowMs, now),
      reason: "ip",
    };
  }

  async consumeBudget(): Promise<LimitResult> {
    const { budget } = this.policies;
    const now = this.now();
    const key = `${budget.prefix}:${monthKey(now)}`;
    const reset = nextMonthStartSeconds(now);
    // A day of slack past the month keeps the key alive across clock skew between instances.
    const [count] = await this.redis
      .multi()
      .incr(key)
      .expireat(key, reset + 86_400)
      .exec<[number, number]>();
    const allowed = count <= budget.limit;
    return {
      allowed,
      limit: budget.limit,
      remaining: Math.max(0, budget.limit - count),
      reset,
      reason: "budget",
    };
  }

  /** Counts of the bucket `bucket` and the one before it, keyed the way Ratelimit's slidingWindow keys them. */
  private async bucketCounts(clientKey: string, bucket: number): Promise<{ current: number; previous: number }> {
    const base = `${this.policies.ip.prefix}:${clientKey}`;
    const [current, previous] = await this.redis.mget<[number | string | null, number | string | null]>(
      `${base}:${bucket}`,
      `${base}:${bucket - 1}`,
    );
    return { current: toCount(current), previous: toCount(previous) };
  }
}

function toCount(value: number | string | null | undefined): number {
  const count = Number(value ?? 0);
  return Number.isFinite(count) && count > 0 ? count : 0;
}
