import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Redis } from "@upstash/redis";
import {
  createLimiter,
  createUpstashRedis,
  rateLimitHeaders,
  type LimitLog,
  type LimitResult,
  type Policies,
} from "@/lib/ratelimit";
import { startRedisServer, type RedisServer } from "../../helpers/redis-server";
import { startUpstashBridge, type UpstashBridge } from "../../helpers/upstash-bridge";

/**
 * The Upstash store against a real redis-server, through a local bridge that speaks the Upstash REST
 * protocol, with the real @upstash/redis and @upstash/ratelimit clients. Library level: no Next.js server.
 *
 * Nothing here depends on how fast the machine is. The clock is frozen (only `Date` is faked: the
 * Ratelimit windows, the budget month and the fallback's cool-down read it, while sockets and timers run
 * for real), so a burst never straddles a window and a cool-down passes by moving the clock. A healthy
 * Upstash call never times out (HEALTHY_TIMEOUT_MS), and a hang is a bridge that never answers: an answer
 * during it can only come from the in-process fallback, whatever the machine's load.
 */

let redisServer: RedisServer;
let bridge: UpstashBridge;
/** Far past any healthy answer on a loaded machine: a healthy call never falls back. */
const HEALTHY_TIMEOUT_MS = 60_000;
/** The hang tests' timeout: the bridge never answers while stalled, so any value proves the fallback. */
const HANG_TIMEOUT_MS = 100;
const COOLDOWN_MS = 5_000;
/** The frozen clock's start: the first second of a minute (and of a 2 s window). */
const START = Date.UTC(2026, 10, 27, 12, 0, 0);

beforeAll(async () => {
  redisServer = await startRedisServer();
  bridge = await startUpstashBridge({ redisPort: redisServer.port });
});

afterAll(async () => {
  await bridge?.close();
  await redisServer?.stop();
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(START);
});

afterEach(() => {
  vi.useRealTimers();
});

/** Moves the frozen clock on. */
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

function config(overrides: { limit?: number; budget?: number } = {}) {
  return {
    RATE_LIMIT_PER_MINUTE: overrides.limit ?? 10,
    DEMO_URL_MONTHLY_BUDGET: overrides.budget ?? 1000,
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: bridge.token,
  };
}

/** An "app instance": its own Upstash client, Ratelimit and in-process fallback, built the production way. */
function instance(
  options: { policies?: Policies; now?: () => number; logs?: Parameters<LimitLog>[]; timeoutMs?: number } = {},
) {
  return createLimiter(config(), {
    policies: options.policies,
    now: options.now,
    timeoutMs: options.timeoutMs ?? HEALTHY_TIMEOUT_MS,
    cooldownMs: COOLDOWN_MS,
    log: (...args) => options.logs?.push(args),
  });
}

let keySeq = 0;
const uniqueKey = () => `198.51.100.${++keySeq}-${process.pid}`;

function show(result: LimitResult): string {
  return JSON.stringify(result);
}

describe("upstash bridge protocol", () => {
  it("answers @upstash/redis commands, pipelines, transactions, base64 and NOSCRIPT like Upstash", async () => {
    const redis = new Redis({ url: bridge.url, token: bridge.token, retry: false, enableTelemetry: false });
    await redis.set("bridge:text", "héllo wörld");
    expect(await redis.get("bridge:text")).toBe("héllo wörld");
    expect(await redis.mget("bridge:text", "bridge:missing")).toEqual(["héllo wörld", null]);
    expect(await redis.incr("bridge:n")).toBe(1);
    expect(await redis.multi().incr("bridge:n").expireat("bridge:n", 4_102_444_800).exec()).toEqual([2, 1]);
    expect(await redis.pipeline().get("bridge:n").get("bridge:text").exec()).toEqual([2, "héllo wörld"]);
    expect(await redis.eval("#!lua flags=allow-key-locking\nreturn {1, 'two', {3}}", [], [])).toEqual([1, "two", [3]]);
    await expect(redis.evalsha("0".repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);

    const intruder = new Redis({ url: bridge.url, token: "wrong", retry: false, enableTelemetry: false });
    await expect(intruder.get("bridge:text")).rejects.toThrow(/Unauthorized/);
  });
});

describe("Upstash store through Redis", () => {
  it("allows 10 with remaining 9..0 and refuses the 11th with a usable Reset; peek does not consume", async () => {
    const limiter = instance();
    expect(limiter.backend).toBe("upstash");
    const key = uniqueKey();
    const startIndex = bridge.commands.length;

    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await limiter.checkRequest(key);
      expect(result.allowed, show(result)).toBe(true);
      remaining.push(result.remaining);
    }
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(await limiter.peekRequest(key)).toMatchObject({ allowed: false, remaining: 0 });

    const refused = await limiter.checkRequest(key);
    const now = Date.now();
    expect(refused, show(refused)).toMatchObject({ allowed: false, limit: 10, remaining: 0, reason: "ip" });
    expect(Number.isInteger(refused.reset)).toBe(true);
    expect(refused.reset * 1000).toBeGreaterThan(now);
    // Weighted two-bucket window: a full bucket empties just after the *next* bucket starts (<= 2 windows).
    expect(refused.reset * 1000).toBeLessThanOrEqual(now + 121_000);
    expect(Number(rateLimitHeaders(refused, now)["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(limiter.degraded).toBe(false);

    // The client's first EVALSHA missed, it EVALed the script once, and later calls hit the cached script.
    const used = bridge.commands.slice(startIndex);
    expect(used.filter((c) => c === "eval").length).toBeLessThanOrEqual(1);
    expect(used.filter((c) => c === "evalsha").length).toBeGreaterThanOrEqual(11);
    expect(used).toContain("mget");
  });

  it("a client that waits until Reset is admitted again (short window)", async () => {
    const policies: Policies = {
      ip: { limit: 3, windowSeconds: 2, prefix: "linklens:test-ip" },
      budget: { limit: 5, prefix: "linklens:test-budget" },
    };
    const limiter = instance({ policies });
    const key = uniqueKey();
    for (let i = 0; i < 3; i++) expect((await limiter.checkRequest(key)).allowed).toBe(true);
    const refused = await limiter.checkRequest(key);
    expect(refused.allowed, show(refused)).toBe(false);
    advance(999);
    expect((await limiter.checkRequest(key)).allowed, "still refused before Reset").toBe(false);
    vi.setSystemTime(refused.reset * 1000);
    const again = await limiter.checkRequest(key);
    expect(again.allowed, `${show(refused)} then ${show(again)}`).toBe(true);
  });

  it("two app instances sharing one Redis enforce one limit together", async () => {
    const a = instance();
    const b = instance();
    const key = uniqueKey();
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await (i % 2 === 0 ? a : b).checkRequest(key);
      expect(result.allowed, show(result)).toBe(true);
      seen.push(result.remaining);
    }
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect((await a.checkRequest(key)).allowed).toBe(false);
    expect((await b.checkRequest(key)).allowed).toBe(false);
    expect(await b.peekRequest(key)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it("shares the monthly budget (INCR + EXPIREAT per YYYY-MM key) and resets at the next month, UTC", async () => {
    const year = 2090 + (Date.now() % 9); // a month no other run uses
    const clock = { now: Date.UTC(year, 11, 31, 23, 59, 59) };
    const policies: Policies = {
      ip: { limit: 10, windowSeconds: 60, prefix: "linklens:ip" },
      budget: { limit: 3, prefix: `linklens:test-budget-${keySeq++}` },
    };
    const a = instance({ policies, now: () => clock.now });
    const b = instance({ policies, now: () => clock.now });
    const results = [
      await a.consumeBudget(),
      await b.consumeBudget(),
      await a.consumeBudget(),
      await b.consumeBudget(),
    ];
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    for (const r of results)
      expect(r, show(r)).toMatchObject({ limit: 3, reason: "budget", reset: Date.UTC(year + 1, 0, 1) / 1000 });
    clock.now = Date.UTC(year + 1, 0, 1, 0, 0, 0);
    expect(await a.consumeBudget()).toMatchObject({
      allowed: true,
      remaining: 2,
      reset: Date.UTC(year + 1, 1, 1) / 1000,
    });
  });

  it("keeps enforcing limits in-process while Redis is down, logs once, and shares again after a restart", async () => {
    const logs: Parameters<LimitLog>[] = [];
    const a = instance({ logs });
    const b = instance();
    const key = uniqueKey();
    for (let i = 0; i < 4; i++) await a.checkRequest(key);

    await redisServer.stop();
    const during: LimitResult[] = [];
    // A refused connection, not a timeout: each call answers without waiting for HEALTHY_TIMEOUT_MS.
    for (let i = 0; i < 12; i++) during.push(await a.checkRequest(key)); // must never throw
    // In-process limits: this instance starts its own window of 10, and still refuses the 11th and 12th.
    expect(during.map((r) => r.allowed)).toEqual([...Array<boolean>(10).fill(true), false, false]);
    expect(a.degraded).toBe(true);
    expect(await a.consumeBudget()).toMatchObject({ allowed: true, reason: "budget" });
    expect(await b.peekRequest(key)).toMatchObject({ reason: "ip" });
    expect(logs.map(([level]) => level)).toEqual(["warn"]);

    await redisServer.start(); // same port, empty: a replaced Redis
    await bridge.redisReady();
    const commandsBefore = bridge.commands.length;
    await a.checkRequest(uniqueKey());
    expect(bridge.commands.length, "no call to Upstash during the cool-down").toBe(commandsBefore);
    expect(a.degraded).toBe(true);
    advance(COOLDOWN_MS + 1);
    const fresh = uniqueKey();
    const first = await a.checkRequest(fresh);
    expect(first, show(first)).toMatchObject({ allowed: true, remaining: 9 });
    expect(a.degraded).toBe(false);
    expect(logs.map(([level]) => level)).toEqual(["warn", "info"]);

    // Shared again: b sees a's request, and together they stop at 10.
    advance(COOLDOWN_MS + 1); // b may have entered its own outage window above
    const seen = [first.remaining];
    for (let i = 1; i < 10; i++) seen.push((await (i % 2 === 0 ? a : b).checkRequest(fresh)).remaining);
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect((await b.checkRequest(fresh)).allowed).toBe(false);
  });

  it("falls back in-process when Upstash hangs past the timeout (the way back is the outage test's)", async () => {
    const logs: Parameters<LimitLog>[] = [];
    const limiter = instance({ logs, timeoutMs: HANG_TIMEOUT_MS });
    const key = uniqueKey();
    bridge.stall(true);
    try {
      // The stalled bridge never answers, so these answers are the timeout's fallback, which still limits.
      const results = [];
      for (let i = 0; i < 11; i++) results.push(await limiter.checkRequest(key));
      expect(results.map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
      expect(results.at(-1)).toMatchObject({ allowed: false, reason: "ip" });
      expect(limiter.degraded).toBe(true);
      expect(logs.map(([level]) => level)).toEqual(["warn"]);
    } finally {
      bridge.stall(false);
    }
  });

  it("createUpstashRedis aborts a hung request by itself", async () => {
    const redis = createUpstashRedis({ url: bridge.url, token: bridge.token, timeoutMs: 200 });
    bridge.stall(true);
    try {
      // The bridge never answers while stalled: only the client's own abort can end this call.
      await expect(redis.get("anything")).rejects.toThrow();
    } finally {
      bridge.stall(false);
    }
  });
});
