import { z } from "zod";

/**
 * Crawler access (google-view.md §3): may each of these crawlers fetch the page, by the page's robots.txt
 * (RFC 9309: the agent's own group, else `*`)? Read from the one robots.txt fetch of the page signals, so
 * it costs nothing more; it is not a verdict reason (the verdict is about Google) but a fact a link buyer
 * wants to see: whether search engines and AI assistants can read the page that carries the link.
 *
 * CRAWLER_AGENTS is the one list and the one order: the page signal's keys, the alert's lists, the
 * export's cell and every sentence name the agents in this order. Browser-safe (zod only).
 */

/** robots.txt product tokens, search engines first, then the AI crawlers and the AI training opt-outs. */
export const CRAWLER_AGENTS = [
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
] as const;
export type CrawlerAgent = (typeof CRAWLER_AGENTS)[number];

/** The search engines' own crawlers; every other agent of the list is an AI crawler (or an AI opt-out token). */
export const SEARCH_CRAWLERS: readonly CrawlerAgent[] = ["Googlebot", "Bingbot"];

/** One agent's access: `unavailable` when robots.txt could not be read (5xx, timeout, a blocked address). */
export const CRAWLER_ACCESS = ["allowed", "disallowed", "unavailable"] as const;
export type CrawlerAccess = (typeof CRAWLER_ACCESS)[number];

const access = z.enum(CRAWLER_ACCESS);
const shape = Object.fromEntries(CRAWLER_AGENTS.map((agent) => [agent, access])) as Record<CrawlerAgent, typeof access>;

export const CrawlersSchema = z.strictObject(shape).meta({
  id: "Crawlers",
  description:
    "robots.txt's answer for each crawler and the final URL (RFC 9309: the agent's own group, else *), from the same fetch as robotsTxt; every agent unavailable when robots.txt could not be read.",
});
export type Crawlers = z.infer<typeof CrawlersSchema>;

/**
 * The signal in the agents' order from what was stored or reported (jsonb keeps no key order), or null
 * when nothing was read: an agent missing from it makes the whole reading unknown.
 */
export function crawlersOf(value: Readonly<Record<string, unknown>> | null | undefined): Crawlers | null {
  if (!value) return null;
  const entries: Array<[CrawlerAgent, CrawlerAccess]> = [];
  for (const agent of CRAWLER_AGENTS) {
    const answer = value[agent];
    if (!(CRAWLER_ACCESS as readonly unknown[]).includes(answer)) return null;
    entries.push([agent, answer as CrawlerAccess]);
  }
  return Object.fromEntries(entries) as Crawlers;
}

/**
 * The disallowed agents in the agents' order, or null when robots.txt could not be read (any agent
 * unavailable): an unread robots.txt says nothing about who is blocked.
 */
export function disallowedCrawlers(crawlers: Crawlers | null): CrawlerAgent[] | null {
  if (!crawlers || CRAWLER_AGENTS.some((agent) => crawlers[agent] === "unavailable")) return null;
  return CRAWLER_AGENTS.filter((agent) => crawlers[agent] === "disallowed");
}

/** Agents named in a stored list, kept in the agents' order; anything else is dropped (stored JSON is not trusted). */
export function knownAgents(value: unknown): CrawlerAgent[] {
  return Array.isArray(value) ? CRAWLER_AGENTS.filter((agent) => value.includes(agent)) : [];
}

/** "GPTBot", "GPTBot and CCBot", "GPTBot, ClaudeBot and CCBot". */
export function agentList(agents: readonly string[]): string {
  if (agents.length <= 1) return agents.join("");
  return `${agents.slice(0, -1).join(", ")} and ${agents.at(-1)}`;
}

/** "AI crawlers" when every agent named is one, else "Crawlers" (a search engine's is among them). */
export function crawlerNoun(agents: readonly CrawlerAgent[]): string {
  return agents.every((agent) => !SEARCH_CRAWLERS.includes(agent)) ? "AI crawlers" : "Crawlers";
}

/**
 * The monitor page's crawler row in words: "AI crawlers: GPTBot and CCBot blocked", "Bingbot blocked;
 * AI crawlers allowed", "all allowed (search and AI crawlers)", or why it is not known.
 */
export function crawlersInWords(crawlers: Crawlers | null): string {
  if (!crawlers) return "not known yet";
  const blocked = disallowedCrawlers(crawlers);
  if (!blocked) return "unknown: robots.txt could not be read (5xx, timeout or blocked address)";
  if (blocked.length === 0) return "all allowed (search and AI crawlers)";
  if (blocked.length === CRAWLER_AGENTS.length) return "all blocked (search and AI crawlers)";
  const search = blocked.filter((agent) => SEARCH_CRAWLERS.includes(agent));
  const ai = blocked.filter((agent) => !SEARCH_CRAWLERS.includes(agent));
  const aiCount = CRAWLER_AGENTS.length - SEARCH_CRAWLERS.length;
  const parts = [
    ...(search.length > 0 ? [`${agentList(search)} blocked`] : []),
    ai.length === 0
      ? "AI crawlers allowed"
      : ai.length === aiCount
        ? "AI crawlers: all blocked"
        : `AI crawlers: ${agentList(ai)} blocked`,
  ];
  return parts.join("; ");
}
