import { crawlersOf, disallowedCrawlers, knownAgents, type CrawlerAgent } from "../schemas/crawlers";
import type { MonitorRow } from "./views";

/**
 * Crawler access of a monitored page across checks (google-view.md §3): what a check stores of its
 * robots.txt reading, and whether the set of disallowed agents changed (`crawler_access_changed`). Pure.
 *
 * - The first set a page gets is not a change.
 * - A robots.txt that could not be read (every agent `unavailable`) is not a change: the page shows it,
 *   and the last known set stands until a reading says otherwise.
 * - Each instance caches robots.txt for an hour, so two instances checking one page in turn may hold
 *   readings of different ages: a reading older than the stored one is older news and changes nothing
 *   (without this rule, an instance still caching yesterday's file would report every change backwards).
 */

/** What a check read: the analyzer's page signals `crawlers` (keyed by agent) and when that robots.txt was fetched. */
export interface CrawlerReading {
  crawlers: Readonly<Record<string, string>> | null;
  robotsTxtReadAt: number | null;
}

export interface CrawlerAccessMove {
  /** The monitor's columns to write; none when the reading is absent or older than the stored one. */
  columns: Partial<Pick<MonitorRow, "pageCrawlers" | "pageCrawlersReadAt" | "blockedCrawlers">>;
  /** The disallowed agents before → after, both in the agents' order; null when the set did not change. */
  change: { before: CrawlerAgent[]; after: CrawlerAgent[] } | null;
}

const NOTHING: CrawlerAccessMove = { columns: {}, change: null };

export function crawlerAccessAfter(
  stored: Pick<MonitorRow, "pageCrawlersReadAt" | "blockedCrawlers">,
  reading: CrawlerReading,
): CrawlerAccessMove {
  const crawlers = crawlersOf(reading.crawlers);
  if (!crawlers || reading.robotsTxtReadAt === null) return NOTHING;
  const readAt = new Date(reading.robotsTxtReadAt);
  if (stored.pageCrawlersReadAt && readAt < stored.pageCrawlersReadAt) return NOTHING;
  const blocked = disallowedCrawlers(crawlers);
  const columns = { pageCrawlers: crawlers, pageCrawlersReadAt: readAt };
  if (!blocked) return { columns, change: null };
  const before = stored.blockedCrawlers ? knownAgents(stored.blockedCrawlers) : null;
  const same = before !== null && before.length === blocked.length && before.every((agent, i) => agent === blocked[i]);
  return {
    columns: { ...columns, blockedCrawlers: blocked },
    change: before !== null && !same ? { before, after: blocked } : null,
  };
}
