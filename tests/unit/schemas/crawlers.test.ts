import { describe, expect, it } from "vitest";
import {
  agentList,
  CRAWLER_AGENTS,
  crawlerNoun,
  crawlersInWords,
  crawlersOf,
  CrawlersSchema,
  disallowedCrawlers,
  knownAgents,
  type CrawlerAccess,
  type CrawlerAgent,
  type Crawlers,
} from "@/lib/schemas/crawlers";

/** Crawler access in the API's shape and in words (google-view.md §3): one list, one order, every state said. */

/** Every agent allowed but `blocked`; every agent `unavailable` when asked. */
function crawlers(blocked: readonly CrawlerAgent[], all?: CrawlerAccess): Crawlers {
  return Object.fromEntries(
    CRAWLER_AGENTS.map((agent) => [agent, all ?? (blocked.includes(agent) ? "disallowed" : "allowed")]),
  ) as Crawlers;
}

describe("the one list", () => {
  it("is the eleven agents of google-view.md §3, in its order", () => {
    expect(CRAWLER_AGENTS).toEqual([
      "Googlebot",
      "Bingbot",
      "GPTBot",
      "OAI-SearchBot",
      "ChatGPT-User",
      "ClaudeBot",
      "Claude-SearchBot",
      "PerplexityBot",
      "Google-Extended",
      "Applebot-Extended",
      "CCBot",
    ]);
  });

  it("the schema takes every agent and nothing else (strict), each allowed, disallowed or unavailable", () => {
    expect(CrawlersSchema.parse(crawlers(["GPTBot"]))).toEqual(crawlers(["GPTBot"]));
    expect(CrawlersSchema.safeParse({ ...crawlers([]), Yandex: "allowed" }).success).toBe(false);
    expect(CrawlersSchema.safeParse({ ...crawlers([]), CCBot: "blocked" }).success).toBe(false);
    const { CCBot: _left, ...missing } = crawlers([]);
    expect(CrawlersSchema.safeParse(missing).success).toBe(false);
  });
});

describe("reading what was stored", () => {
  it("crawlersOf puts the agents in the one order, and an incomplete or odd reading is not known", () => {
    const reversed = Object.fromEntries(Object.entries(crawlers(["CCBot"])).reverse());
    expect(Object.keys(crawlersOf(reversed) ?? {})).toEqual([...CRAWLER_AGENTS]);
    expect(crawlersOf(reversed)).toEqual(crawlers(["CCBot"]));
    expect(crawlersOf(null)).toBeNull();
    expect(crawlersOf(undefined)).toBeNull();
    expect(crawlersOf({ GPTBot: "allowed" })).toBeNull();
    expect(crawlersOf({ ...crawlers([]), GPTBot: 1 })).toBeNull();
  });

  it("disallowedCrawlers: the blocked agents in order; none known when robots.txt could not be read", () => {
    expect(disallowedCrawlers(crawlers(["CCBot", "GPTBot"]))).toEqual(["GPTBot", "CCBot"]);
    expect(disallowedCrawlers(crawlers([]))).toEqual([]);
    expect(disallowedCrawlers(crawlers([], "unavailable"))).toBeNull();
    expect(disallowedCrawlers({ ...crawlers(["GPTBot"]), Bingbot: "unavailable" })).toBeNull();
    expect(disallowedCrawlers(null)).toBeNull();
  });

  it("knownAgents keeps known agents in order and drops the rest", () => {
    expect(knownAgents(["CCBot", "<b>", 3, "GPTBot", "GPTBot"])).toEqual(["GPTBot", "CCBot"]);
    expect(knownAgents("GPTBot")).toEqual([]);
    expect(knownAgents(null)).toEqual([]);
  });
});

describe("in words", () => {
  it.each([
    ["not read yet", null, "not known yet"],
    [
      "robots.txt unreadable",
      crawlers([], "unavailable"),
      "unknown: robots.txt could not be read (5xx, timeout or blocked address)",
    ],
    ["nobody blocked", crawlers([]), "all allowed (search and AI crawlers)"],
    ["two AI crawlers", crawlers(["CCBot", "GPTBot"]), "AI crawlers: GPTBot and CCBot blocked"],
    [
      "three AI crawlers",
      crawlers(["GPTBot", "ClaudeBot", "CCBot"]),
      "AI crawlers: GPTBot, ClaudeBot and CCBot blocked",
    ],
    ["a search crawler only", crawlers(["Bingbot"]), "Bingbot blocked; AI crawlers allowed"],
    [
      "a search crawler and an AI crawler",
      crawlers(["Bingbot", "PerplexityBot"]),
      "Bingbot blocked; AI crawlers: PerplexityBot blocked",
    ],
    [
      "every AI crawler",
      crawlers(CRAWLER_AGENTS.filter((agent) => agent !== "Googlebot" && agent !== "Bingbot")),
      "AI crawlers: all blocked",
    ],
    ["everyone", crawlers(CRAWLER_AGENTS), "all blocked (search and AI crawlers)"],
  ] as const)("%s: %s", (_label, value, words) => {
    expect(crawlersInWords(value)).toBe(words);
  });

  it("lists and nouns", () => {
    expect(agentList([])).toBe("");
    expect(agentList(["GPTBot"])).toBe("GPTBot");
    expect(agentList(["GPTBot", "CCBot"])).toBe("GPTBot and CCBot");
    expect(crawlerNoun(["GPTBot", "CCBot"])).toBe("AI crawlers");
    expect(crawlerNoun(["GPTBot", "Bingbot"])).toBe("Crawlers");
  });
});
