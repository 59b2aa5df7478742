import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkKey, checkLinks } from "@/lib/analyzer/links/check-links";
import { BOT_USER_AGENT } from "@/lib/analyzer/user-agent";
import { parseConfig } from "@/lib/config";
import { staticResolver, type Resolver } from "@/lib/net/resolve";
import { OTHER_SCHEME_REDIRECTS, startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";

let site: FixtureSite;
let resolver: Resolver;
const notFound: Resolver = async (hostname) => {
  throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
};

function config(overrides: Record<string, string> = {}) {
  return parseConfig({ ALLOW_PRIVATE_HOSTS: site.allowEntry, LINK_CHECK_TIMEOUT_MS: "1000", ...overrides });
}

beforeAll(async () => {
  site = await startFixtureSite({ canary: "http://127.0.0.2:9", canaryByName: "http://evil.test" });
  resolver = staticResolver({ "evil.test": ["127.0.0.2"], "public.test": ["93.184.215.14"] }, notFound);
});
afterAll(async () => {
  await site?.close();
});

describe("checkLinks", () => {
  it("reports the exact final status of every kind of link", async () => {
    const table: Record<string, number> = {
      "/status/200": 200,
      "/status/301": 200,
      "/status/403": 403,
      "/status/404": 404,
      "/status/410": 410,
      "/status/500": 500,
      "/status/head-405": 200,
      "/status/head-drop": 200,
      "/chain/1": 200,
      "/status/six-redirects": 301,
      "/loop/a": 302,
      "/hang": 0,
      "/status/to-canary": 0,
      "/status/to-canary-name": 0,
      "/status/to-ftp": 0,
      // A link that redirects to another scheme got no HTTP answer we may follow: 0, as decisions.md says.
      ...Object.fromEntries(Object.keys(OTHER_SCHEME_REDIRECTS).map((path) => [path, 0])),
      "/status/big": 200,
    };
    const urls = Object.keys(table).map((path) => site.url(path));
    urls.push(
      "http://does-not-exist.test/",
      "http://evil.test/x",
      "http://127.0.0.2:9/",
      "http://public.test:8080/",
      "mailto:a@b.c",
      "not a url",
    );
    const started = Date.now();
    const statuses = await checkLinks(urls, { config: config(), resolver });
    const byPath = Object.fromEntries(Object.keys(table).map((path) => [path, statuses.get(checkKey(site.url(path)))]));
    expect(byPath).toEqual(table);
    expect(statuses.get("http://does-not-exist.test/")).toBe(0);
    expect(statuses.get("http://evil.test/x")).toBe(0);
    expect(statuses.get("http://127.0.0.2:9/")).toBe(0);
    expect(statuses.get("http://public.test:8080/")).toBe(0);
    expect(statuses.size).toBe(Object.keys(table).length + 4);
    // /hang costs one HEAD timeout plus one GET timeout; nothing else is slow.
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("sends HEAD first, then GET only when needed, politely", async () => {
    await checkLinks([site.url("/status/head-405"), site.url("/status/200")], { config: config(), resolver });
    const headers = site.headersOf("/status/head-405");
    expect(headers?.["user-agent"]).toBe(BOT_USER_AGENT);
    expect(headers?.["accept-encoding"]).toBe("identity");
    expect(headers?.referer).toBeUndefined();
    expect(headers?.cookie).toBeUndefined();
    expect(site.hits("/status/head-405")).toBeGreaterThanOrEqual(2);
  });

  it("checks each URL once, fragments aside, and keys results by checkKey", async () => {
    const before = site.hits("/status/200?dedupe=1");
    const statuses = await checkLinks(
      [site.url("/status/200?dedupe=1#a"), site.url("/status/200?dedupe=1#b"), site.url("/status/200?dedupe=1")],
      { config: config(), resolver },
    );
    expect([...statuses.keys()]).toEqual([site.url("/status/200?dedupe=1")]);
    expect(site.hits("/status/200?dedupe=1") - before).toBe(1);
    expect(checkKey("https://a.example/x?y#z")).toBe("https://a.example/x?y");
  });

  it("checks at most LINK_CHECK_MAX unique URLs, in order", async () => {
    const urls = Array.from({ length: 30 }, (_, i) => site.url(`/p/cap-${i}`));
    const statuses = await checkLinks(urls, { config: config({ LINK_CHECK_MAX: "10" }), resolver });
    expect([...statuses.keys()]).toEqual(urls.slice(0, 10));
  });

  it("keeps at most 2 requests per host in flight", async () => {
    const urls = Array.from({ length: 8 }, (_, i) => site.url(`/slow/${i}`));
    const statuses = await checkLinks(urls, { config: config({ LINK_CHECK_CONCURRENCY: "8" }), resolver });
    expect([...statuses.values()]).toEqual(Array(8).fill(200));
    expect(site.maxInFlightSlow()).toBe(2);
  });

  it("leaves URLs unfinished at the overall deadline out of the map", async () => {
    const started = Date.now();
    const statuses = await checkLinks([site.url("/status/200?deadline"), site.url("/hang?deadline")], {
      config: config({ LINK_CHECK_TIMEOUT_MS: "5000" }),
      resolver,
      deadlineMs: 600,
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(statuses.get(site.url("/status/200?deadline"))).toBe(200);
    expect(statuses.has(site.url("/hang?deadline"))).toBe(false);
  });
});
