import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PageSignalsList } from "@/components/account/monitors/Verdict";
import { CRAWLER_AGENTS, type CrawlerAccess, type Crawlers } from "@/lib/schemas/crawlers";
import type { PageSignals } from "@/lib/schemas/verdict";

/**
 * The monitor page's crawler row (google-view.md §4), rendered as the server renders it: every state in
 * words (blocked agents, all allowed, robots.txt unreadable, not read yet), the agents' list in their one
 * order under it, and the red of trouble only when a search engine's crawler is kept out.
 */

const crawlers = (access: CrawlerAccess, except: Partial<Crawlers> = {}): Crawlers =>
  Object.fromEntries(CRAWLER_AGENTS.map((agent) => [agent, except[agent] ?? access])) as Crawlers;

const page = (value: Crawlers | null): PageSignals => ({
  httpStatus: 200,
  finalUrl: "https://blog.example/post",
  noindex: false,
  noindexSource: null,
  canonicalUrl: null,
  canonicalElsewhere: false,
  robotsTxt: "allowed",
  crawlers: value,
  googleView: null,
});

/** The crawler row's <dd>, its text without the folded list, and whether it is marked as trouble. */
function row(value: Crawlers | null) {
  const html = renderToStaticMarkup(
    createElement(PageSignalsList, { page: page(value), monitoredUrl: "https://blog.example/post" }),
  );
  const cell = /<dd[^>]*data-signal="crawlers"[^>]*>(.*?)<\/dd>/s.exec(html);
  expect(cell, html).not.toBeNull();
  const opening = /<dd[^>]*data-signal="crawlers"[^>]*>/.exec(html)?.[0] ?? "";
  const inner = cell?.[1] ?? "";
  return {
    words: inner.replace(/<details.*<\/details>/s, ""),
    trouble: opening.includes("data-trouble"),
    agents: [...inner.matchAll(/data-agent="([^"]+)" data-access="([^"]+)"/g)].map((match) => [match[1], match[2]]),
    html,
  };
}

describe("the crawler row", () => {
  it.each([
    [
      "AI crawlers blocked",
      crawlers("allowed", { GPTBot: "disallowed", CCBot: "disallowed" }),
      "AI crawlers: GPTBot and CCBot blocked",
      false,
    ],
    ["nobody blocked", crawlers("allowed"), "all allowed (search and AI crawlers)", false],
    [
      "robots.txt unreadable",
      crawlers("unavailable"),
      "unknown: robots.txt could not be read (5xx, timeout or blocked address)",
      false,
    ],
    [
      "a search engine's crawler blocked",
      crawlers("allowed", { Bingbot: "disallowed" }),
      "Bingbot blocked; AI crawlers allowed",
      true,
    ],
  ] as const)("%s", (_label, value, words, trouble) => {
    const shown = row(value);
    expect(shown.words).toBe(words);
    expect(shown.trouble).toBe(trouble);
    expect(shown.agents).toEqual(CRAWLER_AGENTS.map((agent) => [agent, value[agent]]));
    expect(shown.html).toContain("Crawlers (robots.txt)");
  });

  it("not read yet: said so, and no list", () => {
    const shown = row(null);
    expect(shown.words).toBe("not known yet");
    expect(shown.agents).toEqual([]);
  });

  it("the list says each agent's access in words and kind", () => {
    const { html } = row(crawlers("allowed", { GPTBot: "disallowed", Bingbot: "unavailable" }));
    expect(html).toContain('<span class="font-medium">GPTBot</span> (AI): <span class="font-semibold">blocked</span>');
    expect(html).toContain('<span class="font-medium">Bingbot</span> (search): <span>unknown</span>');
    expect(html).toContain('<span class="font-medium">CCBot</span> (AI): <span>allowed</span>');
  });
});
