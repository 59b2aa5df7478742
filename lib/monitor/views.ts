import type { StoredLink } from "../db/schema/monitors";
import type { Check, Monitor, TrackedLink, Transition } from "../schemas/monitors";
import { linkTransition, monitor, monitorCheck, trackedLink } from "../db/schema";
import { signedInLinkView, toStoredLink } from "../db/stored-link";
import { canonicalElsewhere } from "../verdict";
import { crawlersOf } from "../schemas/crawlers";
import { googleViewOf } from "../schemas/google-view";

/**
 * The exact JSON shapes of docs/spec/account-api.md "Monitored pages and tracked links" (no extra fields): rows in,
 * API objects out. Times are ISO 8601 UTC; expiresOn stays "YYYY-MM-DD".
 */

export type MonitorRow = typeof monitor.$inferSelect;
export type TrackedLinkRow = typeof trackedLink.$inferSelect;
export type CheckRow = typeof monitorCheck.$inferSelect;
export type TransitionRow = typeof linkTransition.$inferSelect;

/** The answers' types come from their schemas (lib/schemas/monitors.ts), which the pages import too. */
export type TrackedLinkView = TrackedLink;
export type MonitorView = Monitor;

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The public Link fields only, in their order (a stored object may come from an older shape). */
export function publicLink(link: StoredLink | null): StoredLink | null {
  return link ? toStoredLink(link) : null;
}

export function trackedLinkView(row: TrackedLinkRow): TrackedLinkView {
  return {
    id: row.id,
    monitorId: row.monitorId,
    target: row.target,
    match: row.match,
    expectedAnchor: row.expectedAnchor,
    expectedRel: row.expectedRel ?? null,
    state: row.state,
    firstSeenAt: iso(row.firstSeenAt),
    lastSeenAt: iso(row.lastSeenAt),
    // The public Link fields and the signals kept with them (unknown for links stored before signals).
    current: signedInLinkView(row.current ?? null),
    verdict: row.verdict ?? null,
    matchCount: row.matchCount ?? null,
    notes: row.notes,
    cost: row.cost,
    expiresOn: row.expiresOn,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * `page` is null until the first check. `httpStatus` is the latest check's (null when the page gave no
 * HTTP answer); the other page signals are from the latest check that loaded the page (null for
 * checks from before page signals existed).
 */
export function monitorView(row: MonitorRow, links: readonly TrackedLinkRow[]): MonitorView {
  return {
    id: row.id,
    url: row.url,
    intervalMinutes: row.intervalMinutes,
    paused: row.paused,
    tags: row.tags,
    status: row.status,
    lastCheckedAt: iso(row.lastCheckedAt),
    nextCheckAt: row.nextCheckAt.toISOString(),
    consecutivePageErrors: row.consecutivePageErrors,
    page: row.lastCheckedAt
      ? {
          httpStatus: row.pageHttpStatus,
          finalUrl: row.pageFinalUrl,
          noindex: row.pageNoindex,
          noindexSource: row.pageNoindex ? (row.pageNoindexSource ?? null) : null,
          canonicalUrl: row.pageCanonicalUrl,
          canonicalElsewhere: canonicalElsewhere(row.pageCanonicalUrl, row.pageFinalUrl),
          robotsTxt: row.pageRobotsTxt ?? null,
          crawlers: crawlersOf(row.pageCrawlers),
          // Off: no Google view (google-view.md §2); between renders the last one stands.
          googleView: row.googleView ? googleViewOf(row.pageGoogleView) : null,
        }
      : null,
    googleView: row.googleView,
    googleViewComparison: row.googleView ? (row.googleViewComparison ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    links: links.map(trackedLinkView),
  };
}

export function checkView(row: CheckRow): Check {
  return {
    id: row.id,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt.toISOString(),
    outcome: row.outcome,
    pageStatus: row.pageStatus,
    errorCode: row.errorCode,
    linksFound: row.linksFound,
  };
}

export function transitionView(row: TransitionRow): Transition {
  return {
    id: row.id,
    trackedLinkId: row.trackedLinkId,
    checkId: row.checkId,
    fromState: row.fromState,
    toState: row.toState,
    before: { state: row.fromState, link: publicLink(row.before ?? null) },
    after: { state: row.toState, link: publicLink(row.after ?? null) },
    createdAt: row.createdAt.toISOString(),
  };
}
