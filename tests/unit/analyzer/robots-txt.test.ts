import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RobotsTxtCache } from "@/lib/analyzer/robots/robots-txt";
import { startRobotsOrigins, type RobotsOrigins } from "@/scripts/lib/fixture-verdict";
import { startCanary, type Canary } from "../../helpers/canary";

/**
 * robots.txt for the page signals (placement-verdict.md): RFC 9309 for Googlebot through robots-parser,
 * fetched with the analyzer's guarded request from real local servers, and cached per origin with an
 * injected clock.
 */

let canary: Canary;
let origins: RobotsOrigins;
let rules: http.Server;
let rulesOrigin: string;
let robotsBody = "";
let rulesHits = 0;

beforeAll(async () => {
  canary = await startCanary();
  origins = await startRobotsOrigins(canary.origin);
  rules = http.createServer((request, response) => {
    if (request.url === "/robots.txt") {
      rulesHits += 1;
      return response.writeHead(200, { "content-type": "text/plain" }).end(robotsBody);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => rules.listen(0, "127.0.0.1", resolve));
  rulesOrigin = `http://127.0.0.1:${(rules.address() as AddressInfo).port}`;
});

afterAll(async () => {
  rules?.closeAllConnections();
  await new Promise<void>((resolve) => rules?.close(() => resolve()));
  await origins?.close();
  await canary?.close();
});

const cacheFor = (extra: { now?: () => number } = {}) =>
  new RobotsTxtCache({
    settings: { ALLOW_PRIVATE_HOSTS: [...origins.allowEntries, new URL(rulesOrigin).host] },
    ...extra,
  });

describe("RFC 9309 for Googlebot", () => {
  const file = (lines: string[]) => `${lines.join("\n")}\n`;
  it.each([
    ["no rules", file([]), "/page", "allowed"],
    ["Disallow everything for everyone", file(["User-agent: *", "Disallow: /"]), "/page", "disallowed"],
    [
      "Googlebot's own group wins over *",
      file(["User-agent: *", "Disallow: /", "", "User-agent: Googlebot", "Allow: /"]),
      "/page",
      "allowed",
    ],
    ["another bot's group does not apply", file(["User-agent: Bingbot", "Disallow: /"]), "/page", "allowed"],
    [
      "the product token is case-insensitive",
      file(["User-agent: googlebot", "Disallow: /page"]),
      "/page",
      "disallowed",
    ],
    ["the longest match decides", file(["User-agent: Googlebot", "Disallow: /", "Allow: /page"]), "/page", "allowed"],
    [
      "the longest match decides (the other way)",
      file(["User-agent: Googlebot", "Allow: /", "Disallow: /page"]),
      "/page/x",
      "disallowed",
    ],
    ["Allow wins a tie", file(["User-agent: Googlebot", "Disallow: /page", "Allow: /page"]), "/page", "allowed"],
    ["the query counts", file(["User-agent: Googlebot", "Disallow: /*?print=1"]), "/page?print=1", "disallowed"],
    ["$ anchors the end", file(["User-agent: Googlebot", "Disallow: /*.pdf$"]), "/page.pdf?x", "allowed"],
    ["an empty Disallow allows", file(["User-agent: Googlebot", "Disallow:"]), "/page", "allowed"],
  ])("%s", async (_label, body, path, expected) => {
    robotsBody = body;
    expect(await cacheFor().answer(new URL(`${rulesOrigin}${path}`))).toBe(expected);
  });
});

describe("what each answer of the server means", () => {
  it.each([
    ["an HTML page instead of a robots file", "html", "allowed"],
    ["a 403", "forbidden", "allowed"],
    ["a 5xx", "server-error", "unavailable"],
    ["a redirect to another (allowed) host, which disallows", "redirect-other-host", "disallowed"],
    ["a rule past 512 KiB is never read", "huge", "allowed"],
  ] as const)("%s: %s", async (_label, variant, expected) => {
    expect(await cacheFor().answer(new URL(`${origins.origin[variant]}/page`))).toBe(expected);
  });

  it("a rule before the cap of a huge file still applies", async () => {
    expect(await cacheFor().answer(new URL(`${origins.origin.huge}/private`))).toBe("disallowed");
  });

  it("a redirect to a private address is unavailable and reaches nothing", async () => {
    const before = canary.connections();
    expect(await cacheFor().answer(new URL(`${origins.origin["redirect-private"]}/page`))).toBe("unavailable");
    expect(canary.connections()).toBe(before);
    expect(canary.hits()).toEqual([]);
  });

  it("a host that never answers is unavailable after 5 s", async () => {
    const started = Date.now();
    expect(await cacheFor().answer(new URL(`${origins.origin.hang}/page`))).toBe("unavailable");
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  }, 15_000);

  it("an origin that is not allow-listed is never contacted", async () => {
    const cache = new RobotsTxtCache({ settings: { ALLOW_PRIVATE_HOSTS: [] } });
    expect(await cache.answer(new URL(`${origins.origin["disallow-all"]}/page`))).toBe("unavailable");
  });
});

describe("one fetch per origin per hour", () => {
  it("answers every path of an origin from one fetch, until the hour is over", async () => {
    robotsBody = "User-agent: Googlebot\nDisallow: /private\n";
    let now = 1_000_000;
    const cache = cacheFor({ now: () => now });
    const before = rulesHits;
    const answers = await Promise.all([
      cache.answer(new URL(`${rulesOrigin}/a`)),
      cache.answer(new URL(`${rulesOrigin}/private`)),
      cache.answer(new URL(`${rulesOrigin}/b`)),
    ]);
    expect(answers).toEqual(["allowed", "disallowed", "allowed"]);
    expect(rulesHits - before).toBe(1);
    now += 59 * 60_000;
    robotsBody = "User-agent: Googlebot\nDisallow: /\n";
    expect(await cache.answer(new URL(`${rulesOrigin}/a`))).toBe("allowed");
    expect(rulesHits - before).toBe(1);
    now += 2 * 60_000;
    expect(await cache.answer(new URL(`${rulesOrigin}/a`))).toBe("disallowed");
    expect(rulesHits - before).toBe(2);
  });

  it("asks an unavailable origin again after five minutes", async () => {
    let now = 5_000_000;
    const cache = cacheFor({ now: () => now });
    const before = origins.robotsHits("server-error");
    await cache.answer(new URL(`${origins.origin["server-error"]}/page`));
    now += 4 * 60_000;
    await cache.answer(new URL(`${origins.origin["server-error"]}/page`));
    expect(origins.robotsHits("server-error") - before).toBe(1);
    now += 2 * 60_000;
    await cache.answer(new URL(`${origins.origin["server-error"]}/page`));
    expect(origins.robotsHits("server-error") - before).toBe(2);
  });
});
