import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RobotsTxtCache } from "@/lib/analyzer/robots/robots-txt";
import { CRAWLER_AGENTS } from "@/lib/schemas/crawlers";
import { startRobotsOrigins, type RobotsOrigins } from "@/scripts/lib/fixture-verdict";
import { startCanary, type Canary } from "../../helpers/canary";

/**
 * robots.txt per agent (google-view.md §3, RFC 9309): each crawler by its own group, else `*`, from one
 * fetch of a real local server through the analyzer's guarded request; 4xx, 5xx and a timeout answer for
 * every agent at once.
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

const file = (lines: string[]) => `${lines.join("\n")}\n`;

/** The agents robots.txt keeps out of `path` on the rules server, from one reading of `lines`. */
async function disallowed(lines: string[], path = "/page"): Promise<string[]> {
  robotsBody = file(lines);
  const { answers } = await cacheFor().answers(new URL(`${rulesOrigin}${path}`), CRAWLER_AGENTS);
  return CRAWLER_AGENTS.filter((_agent, index) => answers[index] === "disallowed");
}

describe("RFC 9309 per agent: the agent's own group, else *", () => {
  const everyone = [...CRAWLER_AGENTS];
  it.each([
    ["no file rules: nobody is kept out", [], []],
    ["* disallows: every agent without a group of its own", ["User-agent: *", "Disallow: /"], everyone],
    ["an agent's own group, and nobody else", ["User-agent: GPTBot", "Disallow: /"], ["GPTBot"]],
    [
      "an agent's own group wins over * (for that agent only)",
      ["User-agent: *", "Disallow: /", "", "User-agent: GPTBot", "Allow: /"],
      everyone.filter((agent) => agent !== "GPTBot"),
    ],
    [
      "an empty group of its own allows (the agent does not fall back to *)",
      ["User-agent: *", "Disallow: /", "", "User-agent: CCBot", "Disallow:"],
      everyone.filter((agent) => agent !== "CCBot"),
    ],
    [
      "several user-agent lines make one group",
      ["User-agent: GPTBot", "User-agent: ClaudeBot", "User-agent: CCBot", "Disallow: /"],
      ["GPTBot", "ClaudeBot", "CCBot"],
    ],
    [
      "groups naming one agent twice are merged",
      ["User-agent: PerplexityBot", "Disallow: /private", "", "User-agent: PerplexityBot", "Disallow: /page"],
      ["PerplexityBot"],
    ],
    [
      "agent names are case-insensitive",
      ["User-agent: gptbot", "User-agent: CLAUDEBOT", "User-agent: oai-searchbot", "Disallow: /"],
      ["GPTBot", "OAI-SearchBot", "ClaudeBot"],
    ],
    ["a version after the token still names the agent", ["User-agent: GPTBot/1.2", "Disallow: /"], ["GPTBot"]],
    [
      "a token is the whole name: Googlebot's group is not Google-Extended's, ClaudeBot's not Claude-SearchBot's",
      ["User-agent: Googlebot", "User-agent: ClaudeBot", "Disallow: /"],
      ["Googlebot", "ClaudeBot"],
    ],
    [
      "the opt-out tokens have groups of their own",
      ["User-agent: Google-Extended", "User-agent: Applebot-Extended", "Disallow: /"],
      ["Google-Extended", "Applebot-Extended"],
    ],
    [
      "the longest match decides",
      [
        "User-agent: Bingbot",
        "Disallow: /",
        "Allow: /page",
        "",
        "User-agent: ChatGPT-User",
        "Allow: /",
        "Disallow: /page",
      ],
      ["ChatGPT-User"],
    ],
    [
      "Allow wins a tie",
      ["User-agent: Claude-SearchBot", "Disallow: /page", "Allow: /page", "", "User-agent: CCBot", "Disallow: /page"],
      ["CCBot"],
    ],
    [
      "rules for other paths do not apply",
      ["User-agent: *", "Disallow: /private", "", "User-agent: GPTBot", "Disallow: /pages"],
      [],
    ],
  ] as const)("%s", async (_label, lines, expected) => {
    expect(await disallowed([...lines])).toEqual([...expected]);
  });

  it("answers in the order asked, Googlebot's the same as answer()'s", async () => {
    robotsBody = file(["User-agent: Googlebot", "Disallow: /", "", "User-agent: CCBot", "Allow: /"]);
    const cache = cacheFor();
    const url = new URL(`${rulesOrigin}/page`);
    expect((await cache.answers(url, ["CCBot", "Googlebot", "GPTBot"])).answers).toEqual([
      "allowed",
      "disallowed",
      "allowed",
    ]);
    expect(await cache.answer(url)).toBe("disallowed");
  });
});

describe("what the server's answer means for every agent at once", () => {
  it.each([
    ["a 403 (a 4xx): every agent allowed", "forbidden", "allowed"],
    ["a 5xx: every agent unavailable", "server-error", "unavailable"],
    ["a robots.txt that disallows Googlebot only", "disallow-all", "mixed"],
  ] as const)("%s", async (_label, variant, expected) => {
    const { answers } = await cacheFor().answers(new URL(`${origins.origin[variant]}/page`), CRAWLER_AGENTS);
    if (expected === "mixed")
      expect(answers).toEqual(CRAWLER_AGENTS.map((a) => (a === "Googlebot" ? "disallowed" : "allowed")));
    else expect(answers).toEqual(CRAWLER_AGENTS.map(() => expected));
  });

  it("a host that never answers: every agent unavailable after 5 s", async () => {
    const { answers } = await cacheFor().answers(new URL(`${origins.origin.hang}/page`), CRAWLER_AGENTS);
    expect(answers).toEqual(CRAWLER_AGENTS.map(() => "unavailable"));
  }, 15_000);
});

describe("one reading per origin, and when it was fetched", () => {
  it("every agent of every path from one fetch; a cached reading keeps its fetch's time", async () => {
    robotsBody = file(["User-agent: GPTBot", "Disallow: /"]);
    let now = 7_000_000;
    const cache = cacheFor({ now: () => now });
    const before = rulesHits;
    const first = await cache.answers(new URL(`${rulesOrigin}/a`), CRAWLER_AGENTS);
    now += 30 * 60_000;
    const second = await cache.answers(new URL(`${rulesOrigin}/b`), ["GPTBot"]);
    expect(rulesHits - before).toBe(1);
    expect(first.readAt).toBe(7_000_000);
    expect(second).toEqual({ answers: ["disallowed"], readAt: 7_000_000 });
    now += 31 * 60_000;
    robotsBody = file([]);
    expect(await cache.answers(new URL(`${rulesOrigin}/b`), ["GPTBot"])).toEqual({
      answers: ["allowed"],
      readAt: now,
    });
    expect(rulesHits - before).toBe(2);
  });
});
