import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { audit, monitor, trackedLink } from "../db/schema";
import { owned } from "../monitor/scope";
import type { LinkState } from "../schemas/monitors";
import type { Verdict, VerdictValue } from "../schemas/verdict";
import type { ShareRow } from "./shares";

/**
 * The tracked links a tag or monitor share shows: the organization's links on the monitor, or on every
 * monitor with the tag, in page-URL then creation order. Only the fields a report may show are read.
 */

export interface ScopedLink {
  id: string;
  pageUrl: string;
  target: string;
  match: "exact" | "prefix" | "domain";
  state: LinkState;
  verdict: Verdict | null;
  lastCheckedAt: Date | null;
  /** When it was tracked (a report's history counts it from then). */
  createdAt: Date;
}

function inScope(row: ShareRow): SQL {
  const where =
    row.scope === "monitor" ? eq(monitor.id, row.monitorId ?? "") : sql`${row.tag ?? ""} = ANY(${monitor.tags})`;
  return and(owned(trackedLink, row.organizationId), eq(monitor.organizationId, row.organizationId), where) as SQL;
}

/** `limit` links from `offset` in report order. */
export async function scopedLinks(
  db: Pick<Db, "select">,
  row: ShareRow,
  offset: number,
  limit: number,
): Promise<ScopedLink[]> {
  const rows = await db
    .select({
      id: trackedLink.id,
      pageUrl: monitor.url,
      target: trackedLink.target,
      match: trackedLink.match,
      state: trackedLink.state,
      verdict: trackedLink.verdict,
      lastCheckedAt: monitor.lastCheckedAt,
      createdAt: trackedLink.createdAt,
    })
    .from(trackedLink)
    .innerJoin(monitor, eq(monitor.id, trackedLink.monitorId))
    .where(inScope(row))
    .orderBy(asc(monitor.url), asc(trackedLink.createdAt), asc(trackedLink.id))
    .limit(limit)
    .offset(offset);
  return rows;
}

/** The links in scope counted by state. */
export async function scopedStates(db: Pick<Db, "select">, row: ShareRow): Promise<Partial<Record<LinkState, number>>> {
  const rows = await db
    .select({ state: trackedLink.state, n: count() })
    .from(trackedLink)
    .innerJoin(monitor, eq(monitor.id, trackedLink.monitorId))
    .where(inScope(row))
    .groupBy(trackedLink.state);
  return Object.fromEntries(rows.map((entry) => [entry.state, Number(entry.n)]));
}

/** The links in scope counted by verdict value (`none`: no verdict yet). */
export async function scopedVerdicts(
  db: Pick<Db, "select">,
  row: ShareRow,
): Promise<Partial<Record<VerdictValue | "none", number>>> {
  const rows = await db
    .select({ value: trackedLink.verdictValue, n: count() })
    .from(trackedLink)
    .innerJoin(monitor, eq(monitor.id, trackedLink.monitorId))
    .where(inScope(row))
    .groupBy(trackedLink.verdictValue);
  return Object.fromEntries(rows.map((entry) => [entry.value ?? "none", Number(entry.n)]));
}

/** The ids of every link in scope (the report's history reads their changes). */
export function scopedLinkIds(db: Pick<Db, "select">, row: ShareRow) {
  return db
    .select({ id: trackedLink.id })
    .from(trackedLink)
    .innerJoin(monitor, eq(monitor.id, trackedLink.monitorId))
    .where(inScope(row));
}

/** The saved audit an audit share shows (its own columns only; never who ran it). */
export async function sharedAudit(db: Pick<Db, "select">, row: ShareRow) {
  const [found] = await db
    .select({ id: audit.id, url: audit.url, title: audit.title, stats: audit.stats, createdAt: audit.createdAt })
    .from(audit)
    .where(owned(audit, row.organizationId, eq(audit.id, row.auditId ?? "")))
    .limit(1);
  return found ?? null;
}
