import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkKey, checkLinks } from "@/lib/analyzer/links/check-links";
import { createRenderer } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { FilteringProxy } from "@/lib/net/filtering-proxy";
import {
  analysisResolver,
  assertPublicHost,
  cachingResolver,
  MAX_CONCURRENT_LOOKUPS,
  type Resolver,
} from "@/lib/net/resolve";
import { codeOf } from "@/tests/helpers/error-code";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/tests/helpers/server";

/**
 * A resolver like a busy one: a lookup that arrives while `dropAbove` others are running is dropped
 * (never answered; glibc would wait 5 s and retry). Names ending in `.live.test` resolve to 127.0.0.1,
 * everything else is NXDOMAIN. It counts lookups per name and the most ever running at once.
 */
function stallingResolver(dropAbove: number) {
  const lookups = new Map<string, number>();
  let running = 0;
  let peak = 0;
  let dropped = 0;
  const resolve: Resolver = async (hostname) => {
    lookups.set(hostname, (lookups.get(hostname) ?? 0) + 1);
    if (running >= dropAbove) {
      dropped += 1;
      return new Promise<never>(() => undefined);
    }
    running += 1;
    peak = Math.max(peak, running);
    try {
      // Give every lookup a moment so concurrent ones really overlap.
      await new Promise((done) => setTimeout(done, 5));
      if (hostname.endsWith(".live.test")) return [{ address: "127.0.0.1", family: 4 as const }];
      throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    } finally {
      running -= 1;
    }
  };
  return { resolve, lookups, peak: () => peak, dropped: () => dropped };
}

let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite({ canary: "http://127.0.0.2:9", canaryByName: "http://evil.test" });
});
afterAll(async () => {
  await site?.close();
});

describe("one DNS answer per host per analysis", () => {
  it("looks each host up once, never runs enough lookups at once to be dropped, and checks every link", async () => {
    const dns = stallingResolver(MAX_CONCURRENT_LOOKUPS + 1);
    const liveHosts = Array.from({ length: 12 }, (_, i) => `h${i}.live.test`);
    const deadHosts = Array.from({ length: 12 }, (_, i) => `gone${i}.test`);
    const urls: string[] = [];
    for (const host of liveHosts)
      for (const path of ["/p/1", "/p/2", "/status/404"]) urls.push(`http://${host}:${site.port}${path}`);
    // Port 80, so the policy lets them through to DNS, which has never heard of them.
    for (const host of deadHosts)
      for (const path of ["/p/1", "/p/2", "/status/404"]) urls.push(`http://${host}${path}`);
    const config = parseConfig({
      ALLOW_PRIVATE_HOSTS: liveHosts.map((host) => `${host}:${site.port}`).join(","),
      LINK_CHECK_TIMEOUT_MS: "5000",
      LINK_CHECK_CONCURRENCY: "16",
    });
    const resolver = analysisResolver(dns.resolve);

    // The render's proxy session asks first, as it does in URL mode; the checker reuses its answers.
    const proxy = await FilteringProxy.start({ allowPrivateHosts: config.ALLOW_PRIVATE_HOSTS });
    const session = await proxy.openSession({ resolver });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: "127.0.0.1", port: session.port }, () =>
          socket.write(`CONNECT h0.live.test:${site.port} HTTP/1.1\r\n\r\n`),
        );
        socket.once("data", (chunk: Buffer) => {
          resolve(chunk.toString().split("\r\n")[0] ?? "");
          socket.destroy();
        });
        socket.on("error", reject);
      });
      expect(line).toBe("HTTP/1.1 200 Connection Established");
    } finally {
      await session.close();
      await proxy.close();
    }

    const statuses = await checkLinks(urls, { config, resolver });
    const unchecked = urls.filter((url) => !statuses.has(checkKey(url)));
    expect(unchecked).toEqual([]);
    for (const host of liveHosts) {
      expect(statuses.get(`http://${host}:${site.port}/p/1`)).toBe(200);
      expect(statuses.get(`http://${host}:${site.port}/status/404`)).toBe(404);
    }
    for (const host of deadHosts) expect(statuses.get(`http://${host}/p/1`)).toBe(0);
    // Positive and negative answers alike: one lookup per host, proxy and checker together.
    expect([...dns.lookups.values()].every((count) => count === 1)).toBe(true);
    expect(dns.lookups.size).toBe(liveHosts.length + deadHosts.length);
    expect(dns.dropped()).toBe(0);
    expect(dns.peak()).toBeLessThanOrEqual(MAX_CONCURRENT_LOOKUPS);
  });

  it("caches failures and answers for the TTL only (injected clock)", async () => {
    let now = 0;
    const calls: string[] = [];
    const base: Resolver = async (hostname) => {
      calls.push(hostname);
      throw new Error("ENOTFOUND");
    };
    const resolver = cachingResolver(base, { ttlMs: 1_000, now: () => now });
    await Promise.allSettled([resolver("a.test"), resolver("A.test."), resolver("a.test")]);
    expect(calls).toEqual(["a.test"]);
    now = 999;
    await resolver("a.test").catch(() => undefined);
    expect(calls).toHaveLength(1);
    now = 1_000;
    await resolver("a.test").catch(() => undefined);
    expect(calls).toHaveLength(2);
  });

  it("sends no GET after a connection failure (one connection attempt, one lookup)", async () => {
    const closedPort = await freePort();
    const lookups: string[] = [];
    const resolver: Resolver = async (hostname) => {
      lookups.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const config = parseConfig({ ALLOW_PRIVATE_HOSTS: `refused.test:${closedPort}`, LINK_CHECK_TIMEOUT_MS: "2000" });
    // No cache here on purpose: every connection attempt resolves again, so lookups count attempts.
    const statuses = await checkLinks([`http://refused.test:${closedPort}/`], { config, resolver });
    expect(statuses.get(`http://refused.test:${closedPort}/`)).toBe(0);
    expect(lookups).toEqual(["refused.test"]);
  });
});

describe("link-check budget", () => {
  it("counts redirect hops against LINK_CHECK_MAX unique URLs", async () => {
    // /chain/1 → /chain/2 → /chain/3 → /chain/end is four URLs; the budget is three.
    const config = parseConfig({
      ALLOW_PRIVATE_HOSTS: site.allowEntry,
      LINK_CHECK_MAX: "3",
      LINK_CHECK_CONCURRENCY: "1",
    });
    const before = ["/chain/1", "/chain/2", "/chain/3", "/chain/end", "/p/budget"].map((path) => site.hits(path));
    const statuses = await checkLinks([site.url("/chain/1"), site.url("/p/budget")], { config });
    const requested = ["/chain/1", "/chain/2", "/chain/3", "/chain/end", "/p/budget"].filter(
      (path, i) => site.hits(path) > (before[i] ?? 0),
    );
    expect(requested).toEqual(["/chain/1", "/chain/2", "/chain/3"]);
    // Neither link got an answer within the budget: both unchecked, not broken.
    expect(statuses.has(site.url("/chain/1"))).toBe(false);
    expect(statuses.has(site.url("/p/budget"))).toBe(false);
  });
});

describe("operator deny list (DENY_HOSTS)", () => {
  const lookups: string[] = [];
  const counting: Resolver = async (hostname) => {
    lookups.push(hostname);
    return [{ address: "93.184.215.14", family: 4 }];
  };

  it("refuses a deny-listed page host and its subdomains with BLOCKED_URL before any lookup", async () => {
    const deny = parseConfig({ DENY_HOSTS: "denied.example,Other.Example" }).DENY_HOSTS;
    for (const host of ["denied.example", "www.denied.example", "a.b.other.example", "DENIED.example."]) {
      expect(await codeOf(assertPublicHost(host, 443, [], { resolver: counting, denyHosts: deny })), host).toBe(
        "BLOCKED_URL",
      );
    }
    expect(await codeOf(assertPublicHost("notdenied.example", 443, [], { resolver: counting, denyHosts: deny }))).toBe(
      "resolved",
    );
    expect(lookups).toEqual(["notdenied.example"]);
  });

  it("answers a URL-mode render of a deny-listed page 403 BLOCKED_URL before DNS or the browser", async () => {
    lookups.length = 0;
    const renderer = createRenderer({ config: parseConfig({ DENY_HOSTS: "denied.example" }), resolver: counting });
    try {
      expect(await codeOf(renderer.render(new URL("https://shop.denied.example/page")))).toBe("BLOCKED_URL");
      expect(lookups).toEqual([]);
      expect(renderer.browser).toBeNull();
    } finally {
      await renderer.close();
    }
  });

  it("refuses deny-listed hosts in the proxy (subresources, redirects) without a lookup", async () => {
    lookups.length = 0;
    const proxy = await FilteringProxy.start({
      allowPrivateHosts: [],
      denyHosts: ["denied.example"],
      resolver: counting,
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: "127.0.0.1", port: proxy.main.port }, () =>
          socket.write("CONNECT cdn.denied.example:443 HTTP/1.1\r\n\r\n"),
        );
        socket.once("data", (chunk: Buffer) => resolve(chunk.toString().split("\r\n")[0] ?? ""));
        socket.on("error", reject);
      });
      expect(line).toMatch(/^HTTP\/1\.1 403/);
      expect(proxy.main.wasHostBlocked("cdn.denied.example", 443)).toBe(true);
      expect(lookups).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("never checks links to deny-listed hosts, nor follows a redirect there (unchecked, not broken)", async () => {
    lookups.length = 0;
    const config = parseConfig({ ALLOW_PRIVATE_HOSTS: site.allowEntry, DENY_HOSTS: "evil.test,denied.example" });
    const urls = [
      "http://denied.example/a",
      "https://www.denied.example/b",
      site.url("/status/to-canary-name"),
      site.url("/p/ok"),
    ];
    const statuses = await checkLinks(urls, { config, resolver: counting });
    expect(Object.fromEntries(urls.map((url) => [url, statuses.get(checkKey(url)) ?? null]))).toEqual({
      "http://denied.example/a": null,
      "https://www.denied.example/b": null,
      [site.url("/status/to-canary-name")]: null,
      [site.url("/p/ok")]: 200,
    });
    expect(lookups).toEqual([]);
  });
});

describe("proxy memory per render", () => {
  it("remembers at most maxBlockedKeys refused hosts and URLs, keeps the first ones, and counts the rest", async () => {
    const proxy = await FilteringProxy.start({ allowPrivateHosts: [], maxBlockedKeys: 5 });
    try {
      for (let i = 0; i < 12; i += 1) {
        await new Promise<void>((resolve, reject) => {
          const socket = net.connect({ host: "127.0.0.1", port: proxy.main.port }, () =>
            socket.write(`GET http://127.0.0.${i + 2}/x HTTP/1.1\r\nHost: x\r\n\r\n`),
          );
          socket.once("data", () => {
            socket.destroy();
            resolve();
          });
          socket.on("error", reject);
        });
      }
      expect(proxy.main.blockedCount).toBe(12);
      expect(proxy.main.wasUrlBlocked("http://127.0.0.2/x")).toBe(true);
      expect(proxy.main.wasHostBlocked("127.0.0.2", 80)).toBe(true);
      expect(proxy.main.wasUrlBlocked("http://127.0.0.13/x")).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});
