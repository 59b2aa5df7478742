import type { ReactNode } from "react";
import { REASON_WORDS, VERDICT_LABELS, type PageSignals, type Verdict, type VerdictValue } from "@/lib/schemas/verdict";
import { redirectedAway } from "@/lib/verdict/url";
import { crawlersInWords, disallowedCrawlers, SEARCH_CRAWLERS } from "@/lib/schemas/crawlers";
import { CrawlerList } from "./CrawlerList";
import { GOOGLE_VIEW_BADGE_REASON, googleViewBadgesOf, GoogleViewReason } from "../google-view/GoogleViewBadge";

/**
 * Does a tracked link still pass value (placement-verdict.md)? The verdict as a labelled badge with its
 * reasons in words, and what the page says about itself. The words are the API's (lib/schemas/verdict.ts),
 * so the app, the emails and the MCP answers say the same thing.
 */

const TONE: Record<VerdictValue, string> = {
  counts:
    "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950/50 dark:text-emerald-200 dark:ring-emerald-800",
  at_risk: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950/50 dark:text-amber-200 dark:ring-amber-800",
  does_not_count: "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950/50 dark:text-red-200 dark:ring-red-800",
};

export function VerdictBadge({ verdict }: { verdict: Verdict | null }) {
  if (!verdict) {
    return (
      <span
        className="inline-flex rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700 ring-1 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600"
        data-verdict="none"
      >
        Not judged yet
      </span>
    );
  }
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ${TONE[verdict.value]}`}
      data-verdict={verdict.value}
    >
      {VERDICT_LABELS[verdict.value]}
    </span>
  );
}

/**
 * The badge, then every reason in words (none for a link that counts). The reasons from Google's view
 * (google-view.md §4) stand out as their own badges, each with its words.
 */
export function VerdictSummary({ verdict, matchCount }: { verdict: Verdict | null; matchCount?: number | null }) {
  const google = verdict ? googleViewBadgesOf(verdict.reasons) : [];
  const googleReasons = new Set(google.map((kind) => GOOGLE_VIEW_BADGE_REASON[kind]));
  const others = verdict ? verdict.reasons.filter((reason) => !googleReasons.has(reason)) : [];
  return (
    <span className="flex flex-col items-start gap-1">
      <VerdictBadge verdict={verdict} />
      {google.map((kind) => (
        <GoogleViewReason key={kind} kind={kind} />
      ))}
      {others.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-4 text-xs text-slate-700 dark:text-slate-300" aria-label="Why">
          {others.map((reason) => (
            <li key={reason} data-reason={reason}>
              {REASON_WORDS[reason]}
            </li>
          ))}
        </ul>
      )}
      {matchCount !== undefined && matchCount !== null && matchCount > 1 && (
        <span className="text-xs text-slate-600 dark:text-slate-400">
          {matchCount} matching links; the best is shown
        </span>
      )}
    </span>
  );
}

/** What the page says about itself, each fact in words with a tone for trouble. */
export function PageSignalsList({ page, monitoredUrl }: { page: PageSignals; monitoredUrl: string }) {
  // The verdict's own comparison (page_redirected): a trailing slash or a #fragment is not a redirect.
  const redirected = redirectedAway(monitoredUrl, page.finalUrl);
  const rows: Array<{ label: string; value: string; trouble: boolean; key: string; detail?: ReactNode }> = [
    {
      key: "noindex",
      label: "Indexing",
      value:
        page.noindex === null
          ? "not known yet"
          : page.noindex
            ? `noindex (${page.noindexSource === "header" ? "X-Robots-Tag header" : "meta robots"})`
            : "indexable",
      trouble: page.noindex === true,
    },
    {
      key: "robots",
      label: "robots.txt (Googlebot)",
      value:
        page.robotsTxt === null
          ? "not known yet"
          : page.robotsTxt === "allowed"
            ? "allowed"
            : page.robotsTxt === "disallowed"
              ? "blocked"
              : "unavailable (5xx, timeout or blocked address)",
      trouble: page.robotsTxt === "disallowed",
    },
    {
      key: "crawlers",
      label: "Crawlers (robots.txt)",
      value: crawlersInWords(page.crawlers),
      // Not a verdict reason: only a search engine's crawler kept out is trouble for the placement.
      trouble: (disallowedCrawlers(page.crawlers) ?? []).some((agent) => SEARCH_CRAWLERS.includes(agent)),
      detail: page.crawlers && <CrawlerList crawlers={page.crawlers} />,
    },
    {
      key: "canonical",
      label: "Canonical",
      value:
        page.canonicalUrl === null
          ? "none"
          : page.canonicalElsewhere
            ? `points elsewhere: ${page.canonicalUrl}`
            : "this page",
      trouble: page.canonicalElsewhere === true,
    },
    {
      key: "redirect",
      label: "Redirect",
      value: page.finalUrl === null ? "not known yet" : redirected ? `ends on ${page.finalUrl}` : "none",
      trouble: redirected,
    },
  ];
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]" data-testid="page-signals">
      {rows.map((row) => (
        <div key={row.key} className="contents">
          <dt className="text-slate-600 dark:text-slate-400">{row.label}</dt>
          <dd
            className={`min-w-0 wrap-anywhere ${row.trouble ? "font-semibold text-red-800 dark:text-red-300" : ""}`}
            data-signal={row.key}
            data-trouble={row.trouble || undefined}
          >
            {row.value}
            {row.detail}
          </dd>
        </div>
      ))}
    </dl>
  );
}
