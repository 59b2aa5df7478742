import { describe, expect, it } from "vitest";
import { crawlerAccessAfter, type CrawlerReading } from "@/lib/monitor/crawler-access";
import { CRAWLER_AGENTS, type CrawlerAgent, type Crawlers } from "@/lib/schemas/crawlers";

/**
 * A monitored page's crawler access across checks (google-view.md §3): what a check stores and when it is
 * a crawler_access_changed, for every case — first set, same set, a change either way, an unreadable
 * robots.txt, and a reading older than the stored one (another instance's cache).
 */

const T0 = new Date("2026-11-23T10:00:00.000Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

function reading(blocked: readonly CrawlerAgent[] | "unavailable", at: Date): CrawlerReading {
  const crawlers = Object.fromEntries(
    CRAWLER_AGENTS.map((agent) => [
      agent,
      blocked === "unavailable" ? "unavailable" : blocked.includes(agent) ? "disallowed" : "allowed",
    ]),
  ) as Crawlers;
  return { crawlers, robotsTxtReadAt: at.getTime() };
}

const stored = (blockedCrawlers: CrawlerAgent[] | null, pageCrawlersReadAt: Date | null) => ({
  blockedCrawlers,
  pageCrawlersReadAt,
});

describe("crawlerAccessAfter", () => {
  it("the first set a page gets is stored, and is not a change", () => {
    const move = crawlerAccessAfter(stored(null, null), reading(["CCBot", "GPTBot"], T0));
    expect(move.change).toBeNull();
    expect(move.columns).toEqual({
      pageCrawlers: reading(["GPTBot", "CCBot"], T0).crawlers,
      pageCrawlersReadAt: T0,
      blockedCrawlers: ["GPTBot", "CCBot"],
    });
  });

  it("no one blocked is a first set too: an empty set, later compared like any other", () => {
    expect(crawlerAccessAfter(stored(null, null), reading([], T0))).toMatchObject({
      change: null,
      columns: { blockedCrawlers: [] },
    });
    expect(crawlerAccessAfter(stored([], T0), reading(["GPTBot"], minutes(60))).change).toEqual({
      before: [],
      after: ["GPTBot"],
    });
  });

  it.each([
    ["one more agent blocked", ["GPTBot"], ["GPTBot", "CCBot"]],
    ["an agent allowed again", ["GPTBot", "CCBot"], ["CCBot"]],
    ["every agent allowed again", ["GPTBot"], []],
    ["one agent for another", ["GPTBot"], ["ClaudeBot"]],
  ] as const)("%s: a change, before → after in the agents' order", (_label, before, after) => {
    const move = crawlerAccessAfter(stored([...before], T0), reading(after, minutes(61)));
    expect(move.change).toEqual({ before: [...before], after: [...after] });
    expect(move.columns.blockedCrawlers).toEqual([...after]);
  });

  it("the same set again is no change, whatever the order it was stored in", () => {
    const move = crawlerAccessAfter(stored(["CCBot", "GPTBot"], T0), reading(["GPTBot", "CCBot"], minutes(61)));
    expect(move.change).toBeNull();
    expect(move.columns).toMatchObject({ pageCrawlersReadAt: minutes(61), blockedCrawlers: ["GPTBot", "CCBot"] });
  });

  it("an unreadable robots.txt is shown but is no change: the last known set stands", () => {
    const move = crawlerAccessAfter(stored(["GPTBot"], T0), reading("unavailable", minutes(61)));
    expect(move.change).toBeNull();
    expect(move.columns).toEqual({
      pageCrawlers: reading("unavailable", T0).crawlers,
      pageCrawlersReadAt: minutes(61),
    });
    expect("blockedCrawlers" in move.columns).toBe(false);
    // Read again later with another set: compared with the last known one.
    expect(crawlerAccessAfter(stored(["GPTBot"], minutes(61)), reading([], minutes(130))).change).toEqual({
      before: ["GPTBot"],
      after: [],
    });
  });

  it("a first reading that is unreadable gives no set, so the next set read is still the first", () => {
    const first = crawlerAccessAfter(stored(null, null), reading("unavailable", T0));
    expect(first).toMatchObject({ change: null });
    expect("blockedCrawlers" in first.columns).toBe(false);
    expect(crawlerAccessAfter(stored(null, T0), reading(["GPTBot"], minutes(10))).change).toBeNull();
  });

  it("a reading older than the stored one changes nothing (another instance still caches the old file)", () => {
    const move = crawlerAccessAfter(stored(["GPTBot", "CCBot"], minutes(30)), reading(["GPTBot"], minutes(5)));
    expect(move).toEqual({ columns: {}, change: null });
    // The same fetch read again (both instances share nothing, but one may read its cache twice): no change.
    expect(crawlerAccessAfter(stored(["GPTBot"], minutes(5)), reading(["GPTBot"], minutes(5))).change).toBeNull();
  });

  it("no reading (signals without crawlers) changes nothing", () => {
    expect(crawlerAccessAfter(stored(["GPTBot"], T0), { crawlers: null, robotsTxtReadAt: null })).toEqual({
      columns: {},
      change: null,
    });
  });
});
