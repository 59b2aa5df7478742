import { CRAWLER_AGENTS, SEARCH_CRAWLERS, type CrawlerAccess, type Crawlers } from "@/lib/schemas/crawlers";

/**
 * Each crawler's access to the page (google-view.md §3), folded under the crawler row's sentence: the
 * agents in their one order, search engines then AI crawlers, each in words.
 */

const WORDS: Record<CrawlerAccess, string> = { allowed: "allowed", disallowed: "blocked", unavailable: "unknown" };

export function CrawlerList({ crawlers }: { crawlers: Crawlers }) {
  return (
    <details className="mt-1 font-normal text-slate-700 dark:text-slate-300" data-testid="crawler-list">
      <summary className="cursor-pointer text-xs text-slate-600 dark:text-slate-400">Each crawler</summary>
      <ul className="mt-1 grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-x-4 text-xs">
        {CRAWLER_AGENTS.map((agent) => (
          <li key={agent} data-agent={agent} data-access={crawlers[agent]}>
            <span className="font-medium">{agent}</span>
            {SEARCH_CRAWLERS.includes(agent) ? " (search)" : " (AI)"}:{" "}
            {/* A blocked agent stands out in the list; the word says it, the weight only repeats it. */}
            <span className={crawlers[agent] === "disallowed" ? "font-semibold" : undefined}>
              {WORDS[crawlers[agent]]}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
