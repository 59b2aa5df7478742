import { and, asc, eq } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import { monitor, trackedLink } from "../db/schema";
import { toCsv } from "../account/csv-cells";
import { IMPORT_COLUMNS } from "./import";
import { linkFilterWhere } from "./links";
import type { LinkFilters } from "../schemas/monitors";
import { knownAgents } from "../schemas/crawlers";

/**
 * GET /api/account/links/export?format=csv|json: the import's columns plus state, first_seen_at,
 * last_seen_at, verdict, verdict_reasons, in_google_view and blocked_crawlers (the page's), one row per tracked link (the
 * list's filters apply), ordered by page then creation. The
 * CSV is RFC 4180, UTF-8, formula-injection safe, and imports back as all `unchanged`; tags are joined
 * with `|`. JSON is an array of objects with the same keys.
 */

export const EXPORT_COLUMNS = [
  ...IMPORT_COLUMNS,
  "state",
  "first_seen_at",
  "last_seen_at",
  "verdict",
  "verdict_reasons",
  "in_google_view",
  "blocked_crawlers",
] as const;
type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | boolean | null>;

export interface ExportFile {
  body: string;
  contentType: string;
  filename: string;
}

export async function exportLinks(
  ctx: AccountContext,
  filters: LinkFilters,
  format: "csv" | "json",
): Promise<ExportFile> {
  const rows = await ctx.db
    .select({ link: trackedLink, url: monitor.url, tags: monitor.tags, blockedCrawlers: monitor.blockedCrawlers })
    .from(trackedLink)
    .innerJoin(
      monitor,
      and(eq(monitor.id, trackedLink.monitorId), eq(monitor.organizationId, trackedLink.organizationId)),
    )
    .where(linkFilterWhere(ctx.organization.id, filters))
    .orderBy(asc(monitor.url), asc(trackedLink.createdAt), asc(trackedLink.id));
  const items: ExportRow[] = rows.map(({ link, url, tags, blockedCrawlers }) => ({
    page_url: url,
    target_url: link.target,
    match: link.match,
    expected_anchor: link.expectedAnchor,
    expected_rel: link.expectedRel ?? null,
    tags: tags.join("|"),
    expires_on: link.expiresOn,
    cost: link.cost,
    notes: link.notes,
    state: link.state,
    first_seen_at: link.firstSeenAt?.toISOString() ?? null,
    last_seen_at: link.lastSeenAt?.toISOString() ?? null,
    // placement-verdict.md: the value, and the reasons joined by ";" (in both formats).
    verdict: link.verdict?.value ?? null,
    verdict_reasons: link.verdict ? link.verdict.reasons.join(";") : null,
    in_google_view: inGoogleView(link),
    // google-view.md §3: the page's disallowed crawlers as last known (an unreadable robots.txt keeps
    // them), joined by ";" in the agents' order; "" when none, null before robots.txt was read.
    blocked_crawlers: blockedCrawlers ? knownAgents(blockedCrawlers).join(";") : null,
  }));
  const now = ctx.now();
  await recordActivity(ctx.db, {
    organizationId: ctx.organization.id,
    actor: ctx.user,
    action: "tracked_links.export",
    target: null,
    details: { format, links: items.length, filters },
  });
  const stamp = now.toISOString().slice(0, 10);
  if (format === "json")
    return {
      body: JSON.stringify(items, null, 2),
      contentType: "application/json; charset=utf-8",
      filename: `linklens-links-${stamp}.json`,
    };
  const body = toCsv([EXPORT_COLUMNS, ...items.map((item) => EXPORT_COLUMNS.map((column) => item[column]))]);
  return { body, contentType: "text/csv; charset=utf-8", filename: `linklens-links-${stamp}.csv` };
}

/**
 * google-view.md §4: is the tracked link in Googlebot's render? The current link's signal while it is on
 * the page; true for a link shown only to Googlebot (missing for visitors, present for Googlebot); null
 * when not known (not seen yet, missing, Google's view off, unavailable or not rendered).
 */
function inGoogleView(link: typeof trackedLink.$inferSelect): boolean | null {
  if (link.verdict?.reasons.includes("shown_only_to_googlebot")) return true;
  if (link.state === "pending" || link.state === "missing") return null;
  return link.current?.signals?.inGoogleView ?? null;
}
