import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorSchema } from "../../lib/api/schemas";
import { startRedisServer, type RedisServer } from "../helpers/redis-server";
import { BROWSER_UA, startServer, type RunningServer } from "../../scripts/lib/server-process";
import { startUpstashBridge, type UpstashBridge } from "../helpers/upstash-bridge";

const PASTE = JSON.stringify({ html: '<a href="https://example.org/">x</a>' });

async function post(server: RunningServer, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/api/demo/analyze`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": BROWSER_UA, ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: JSON.parse(text) as unknown,
    limit: response.headers.get("x-ratelimit-limit"),
    remaining: response.headers.get("x-ratelimit-remaining"),
    reset: response.headers.get("x-ratelimit-reset"),
    retryAfter: response.headers.get("retry-after"),
  };
}

/**
 * Upstash's sliding window weighs the previous fixed (epoch-aligned) minute; a sequence that straddles a
 * minute boundary may let one request more through. Start sequences early in a minute.
 */
async function earlyInAMinute(): Promise<void> {
  while (new Date().getUTCSeconds() > 40) await new Promise((resolve) => setTimeout(resolve, 500));
}

function startOfNextMonthUtc(now = new Date()): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000;
}

describe("per-IP limit, in-process store (defaults)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({});
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("counts 9..0, answers the 11th with 429 and proper headers, and forged X-Forwarded-For does not help", async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      // Every POST counts, even a bad one: alternate valid and invalid bodies.
      const result = await post(server, i % 2 === 0 ? PASTE : "{bad json", { "X-Forwarded-For": `203.0.113.${i}` });
      expect(result.status, result.text).toBe(i % 2 === 0 ? 200 : 400);
      expect(result.limit).toBe("10");
      remaining.push(result.remaining ?? "");
    }
    expect(remaining).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);

    const now = Math.floor(Date.now() / 1000);
    const limited = await post(server, PASTE, { "X-Forwarded-For": "198.51.100.77", "X-Real-IP": "198.51.100.78" });
    expect(limited.status, limited.text).toBe(429);
    expect(ErrorSchema.parse(limited.json).errorCode).toBe("RATE_LIMITED");
    expect(limited.limit).toBe("10");
    expect(limited.remaining).toBe("0");
    const reset = Number(limited.reset);
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(now);
    expect(reset).toBeLessThanOrEqual(now + 61);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(61);

    // A 405 shows the limit without spending it.
    const wrongMethod = await fetch(`${server.baseUrl}/api/demo/analyze`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("x-ratelimit-remaining")).toBe("0");
    // Discovery routes are not limited.
    expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBe(200);
  });
});

describe("monthly URL budget and bot check", () => {
  let server: RunningServer;
  let site: http.Server;
  let siteUrl: string;
  beforeAll(async () => {
    site = http.createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end('<!doctype html><title>t</title><a href="/about">About</a>');
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const port = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${port}/`;
    server = await startServer({
      DEMO_URL_MONTHLY_BUDGET: "2",
      RATE_LIMIT_PER_MINUTE: "1000",
      ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`,
      LINK_CHECK_TIMEOUT_MS: "2000",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  it("rejects automated URL-mode clients without spending the budget, and never checks paste mode", async () => {
    for (const ua of [
      "",
      "curl/8.5.0",
      "python-requests/2.32",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 HeadlessChrome/120.0",
    ]) {
      const result = await post(server, JSON.stringify({ url: siteUrl }), { "User-Agent": ua });
      expect(result.status, `${ua}: ${result.text}`).toBe(403);
      expect(ErrorSchema.parse(result.json).errorCode).toBe("BOT_DETECTED");
      expect(ErrorSchema.parse(result.json).hint).toMatch(/paste mode/i);
    }
    const paste = await post(server, PASTE, { "User-Agent": "curl/8.5.0" });
    expect(paste.status, paste.text).toBe(200);
  });

  it("answers budget + 1 with 429 describing the budget, while paste mode keeps working", async () => {
    for (let i = 0; i < 2; i += 1) {
      const accepted = await post(server, JSON.stringify({ url: siteUrl }));
      expect(accepted.status, accepted.text).not.toBe(429);
    }
    const spent = await post(server, JSON.stringify({ url: siteUrl }));
    expect(spent.status, spent.text).toBe(429);
    const body = ErrorSchema.parse(spent.json);
    expect(body.errorCode).toBe("RATE_LIMITED");
    expect(body.hint).toMatch(/paste mode/i);
    expect(spent.limit).toBe("2");
    expect(spent.remaining).toBe("0");
    expect(Number(spent.reset)).toBe(startOfNextMonthUtc());
    expect(Number(spent.retryAfter)).toBeGreaterThanOrEqual(1);

    const paste = await post(server, PASTE);
    expect(paste.status, paste.text).toBe(200);
    expect(paste.limit).toBe("1000");
  });
});

describe("two instances sharing one Redis through the Upstash REST protocol", () => {
  let redis: RedisServer;
  let bridge: UpstashBridge;
  let first: RunningServer;
  let second: RunningServer;
  beforeAll(async () => {
    redis = await startRedisServer();
    bridge = await startUpstashBridge({ redisPort: redis.port });
    // Deterministic under load: a healthy Upstash call never times out into the in-process store (which
    // would split the count between the instances), and with no cool-down the first call after Redis is
    // back asks it again, so nothing here waits for a clock. An outage is a refused connection (the
    // bridge answers 503 at once), not a timeout.
    const env = {
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      RATE_LIMIT_PER_MINUTE: "6",
      RATE_LIMIT_STORE_TIMEOUT_MS: "60000",
      RATE_LIMIT_STORE_COOLDOWN_MS: "0",
    };
    [first, second] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await bridge?.close();
    await redis?.stop();
  });

  it(
    "enforces one limit together, keeps answering while Redis is down, and shares again when it is back",
    { timeout: 120_000 },
    async () => {
      await earlyInAMinute();
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) statuses.push((await post(i % 2 === 0 ? first : second, PASTE)).status);
      expect(statuses, first.output() + second.output()).toEqual([200, 200, 200, 200, 200, 200, 429]);
      expect(bridge.commands.length).toBeGreaterThan(0);

      await redis.stop();
      const during = [await post(first, PASTE), await post(second, PASTE)];
      for (const result of during) {
        expect(result.status, result.text).toBe(200);
        expect(result.limit).toBe("6");
      }

      await redis.start();
      await bridge.redisReady();
      await earlyInAMinute();
      const commandsBefore = bridge.commands.length;
      const after: number[] = [];
      for (let i = 0; i < 7; i += 1) after.push((await post(i % 2 === 0 ? first : second, PASTE)).status);
      expect(bridge.commands.length).toBeGreaterThan(commandsBefore);
      expect(after, first.output() + second.output()).toEqual([200, 200, 200, 200, 200, 200, 429]);
      for (const server of [first, second]) expect(server.output()).not.toMatch(/"level":50/);
    },
  );
});
