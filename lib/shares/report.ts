import { eq } from "drizzle-orm";
import { readLinkBatch } from "../account/audit-links";
import type { Runtime } from "../db/runtime";
import { monitor } from "../db/schema";
import { owned } from "../monitor/scope";
import { LINK_STATES } from "../schemas/monitors";
import { SHARE_PAGE_SIZE, ShareReportSchema, type ShareLinkRow, type ShareReport } from "../schemas/share-report";
import type { Uptime } from "../schemas/stats";
import { uptimeOfLinks } from "../stats/uptime-query";
import { openShare, type OpenShare } from "./open";
import { scopedLinks, scopedStates, sharedAudit, type ScopedLink } from "./scope";

/**
 * The content of a client report (/r/{token}), a page of SHARE_PAGE_SIZE rows at a time: for a tag or a
 * monitor its tracked links (page, target, state, verdict, last check, 90-day strip and live share), for
 * an audit the saved audit's stats and links. Every report is checked against the strict report schema
 * before it leaves, so nothing private can be added to it by accident.
 */

export const STRIP_DAYS = 90;

/** The rows of a report page from the links and their uptimes. */
export function linkRows(links: readonly ScopedLink[], uptimes: ReadonlyMap<string, Uptime>): ShareLinkRow[] {
  return links.map((link) => ({
    pageUrl: link.pageUrl,
    target: link.target,
    match: link.match,
    state: link.state,
    verdict: link.verdict,
    lastCheckedAt: link.lastCheckedAt?.toISOString() ?? null,
    uptime: uptimes.get(link.id) ?? { livePercent: null, days: [] },
  }));
}

/** `?page=` of a report: absent is 1, else a whole number from 1 (anything else names no page). */
export function reportPageParam(value: string | string[] | null | undefined): number | null {
  if (value === undefined || value === null) return 1;
  return typeof value === "string" && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : null;
}

/** How many pages the report of an open share has (null: its audit is gone). */
export async function reportPageCount(runtime: Pick<Runtime, "db">, opened: OpenShare): Promise<number | null> {
  if (opened.share.scope === "audit") {
    const saved = await sharedAudit(runtime.db, opened.share);
    return saved ? pageCount(saved.stats.total) : null;
  }
  const states = await scopedStates(runtime.db, opened.share);
  return pageCount(Object.values(states).reduce((sum, n) => sum + n, 0));
}

/**
 * Whether /r/{token}?page= shows a report: the token opens an active share and the page exists. The
 * production server asks this before the page renders, to answer 404 with the page's "not available"
 * view (a Next page cannot set its own status without JavaScript in the reader's browser).
 */
export async function reportPageExists(
  runtime: Pick<Runtime, "db" | "now">,
  token: string,
  page: string | string[] | null,
): Promise<boolean> {
  const number = reportPageParam(page);
  if (number === null) return false;
  const opened = await openShare(runtime, token);
  if (!opened) return false;
  const pages = await reportPageCount(runtime, opened);
  return pages !== null && number <= pages;
}

/** Page `page` (from 1) of the report, or null when the report has no such page. */
export async function buildReport(
  runtime: Pick<Runtime, "db" | "now">,
  opened: OpenShare,
  page: number,
): Promise<ShareReport | null> {
  const { share: row, organizationName } = opened;
  const now = runtime.now();
  const head = {
    title: row.title,
    organizationName,
    generatedAt: now.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
  const offset = (page - 1) * SHARE_PAGE_SIZE;
  if (row.scope === "audit") {
    const saved = await sharedAudit(runtime.db, row);
    if (!saved) return null;
    const pages = pageCount(saved.stats.total);
    if (page > pages) return null;
    const links = await readLinkBatch(runtime.db, saved.id, offset, SHARE_PAGE_SIZE);
    return ShareReportSchema.parse({
      kind: "audit",
      scope: "audit",
      subject: saved.url,
      ...head,
      audit: { url: saved.url, pageTitle: saved.title, auditedAt: saved.createdAt.toISOString(), stats: saved.stats },
      links,
      page,
      pages,
      total: saved.stats.total,
    });
  }
  const states = await scopedStates(runtime.db, row);
  const total = Object.values(states).reduce((sum, n) => sum + n, 0);
  const pages = pageCount(total);
  if (page > pages) return null;
  const links = await scopedLinks(runtime.db, row, offset, SHARE_PAGE_SIZE);
  const uptimes = await uptimeOfLinks(
    runtime.db,
    row.organizationId,
    links.map((link) => link.id),
    STRIP_DAYS,
    now,
  );
  const subject =
    row.scope === "tag"
      ? (row.tag ?? "")
      : (links[0]?.pageUrl ?? (await monitorUrl(runtime, row.organizationId, row.monitorId)));
  return ShareReportSchema.parse({
    kind: "links",
    scope: row.scope,
    subject,
    ...head,
    states: Object.fromEntries(LINK_STATES.map((state) => [state, states[state] ?? 0])),
    links: linkRows(links, uptimes),
    page,
    pages,
    total,
  });
}

function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / SHARE_PAGE_SIZE));
}

/** A monitor share with no tracked link still names its page. */
async function monitorUrl(
  runtime: Pick<Runtime, "db">,
  organizationId: string,
  monitorId: string | null,
): Promise<string> {
  const [found] = await runtime.db
    .select({ url: monitor.url })
    .from(monitor)
    .where(owned(monitor, organizationId, eq(monitor.id, monitorId ?? "")))
    .limit(1);
  return found?.url ?? "";
}
