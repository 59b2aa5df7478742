import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { monitor, trackedLink } from "../db/schema";
import { owned } from "./scope";

/** The overview's counts: tracked links by state, and monitored pages (in error, paused). */
export interface MonitoringCounts {
  links: { live: number; missing: number; broken: number; mismatched: number; pending: number; total: number };
  pages: { total: number; pageErrors: number; paused: number };
}

export async function monitoringCounts(ctx: {
  db: Pick<Db, "select">;
  organization: { id: string };
}): Promise<MonitoringCounts> {
  const { db } = ctx;
  const organizationId = ctx.organization.id;
  const byState = await db
    .select({ state: trackedLink.state, n: sql<number>`count(*)::int` })
    .from(trackedLink)
    .where(owned(trackedLink, organizationId))
    .groupBy(trackedLink.state);
  const count = (state: string) => byState.find((row) => row.state === state)?.n ?? 0;
  const [pages] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pageErrors: sql<number>`count(*) FILTER (WHERE ${monitor.status} = 'page_error' AND NOT ${monitor.paused})::int`,
      paused: sql<number>`count(*) FILTER (WHERE ${monitor.paused})::int`,
    })
    .from(monitor)
    .where(owned(monitor, organizationId));
  return {
    links: {
      live: count("live"),
      missing: count("missing"),
      broken: count("broken"),
      mismatched: count("rel_mismatch") + count("anchor_mismatch"),
      pending: count("pending"),
      total: byState.reduce((sum, row) => sum + row.n, 0),
    },
    pages: { total: pages?.total ?? 0, pageErrors: pages?.pageErrors ?? 0, paused: pages?.paused ?? 0 },
  };
}
