import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import type { DailyStats } from "../schemas/stats";
import { dailyCounts, type Change } from "./daily";
import { nextDayStart, windowDays } from "./days";
import { emptyTally, isKind } from "./kinds";
import { rowsOf } from "./rows";

/**
 * GET /api/account/stats/daily: one query reads the organization's tracked links counted by kind now
 * (each link's state and, once it has one, its verdict value) and the changes since the window's first
 * day, summed per UTC day and kind; lib/stats/daily.ts works the days out backwards from there. Indexed:
 * tracked_link (organization_id, state, verdict_value) and (organization_id, created_at), link_transition
 * and verdict_transition (organization_id, created_at, from, to), retired_link_span and
 * retired_verdict_span (organization_id, ended_at); a 30-day window reads only 29 days of changes.
 * (Measured in scripts/bench-stats.ts: docs/account-api.md gives the figures.)
 *
 * The links now are counted per (state, verdict) pair, and changes per day and (from, to) pair, before
 * they become counts and −1/+1 per kind: the rows unpivoted are a few per day, not one or two per link
 * or change. Every source lists its kinds in a `VALUES` of its own; a verdict's null (no verdict yet, or
 * reset by a new target) is no kind: a first verdict is only a +1, a reset only a −1.
 */

export interface StatsScope {
  db: Pick<Db, "execute">;
  organization: { id: string };
  now: () => Date;
}

interface Row {
  day: string | null;
  kind: string | null;
  n: number;
}

export async function dailyStats(ctx: StatsScope, count: number): Promise<DailyStats> {
  const now = ctx.now();
  const days = windowDays(now, count);
  const organizationId = ctx.organization.id;
  // Changes on the first day are in its end-of-day counts whatever happened: read from the second day on.
  const since = nextDayStart(days[0] as string).toISOString();
  const result = await ctx.db.execute(dailyStatsQuery(organizationId, since));
  const current = emptyTally();
  const changes: Change[] = [];
  for (const row of rowsOf<Row>(result)) {
    if (!isKind(row.kind)) continue;
    if (row.day === null) current[row.kind] += Number(row.n);
    else changes.push({ day: row.day, kind: row.kind, delta: Number(row.n) });
  }
  return { days: dailyCounts(days, current, changes) };
}

/**
 * The one query: per kind, the count now (day null) and the changes on each day from `since` on.
 * Exported for the benchmark's query plan (scripts/bench-stats.ts).
 */
export function dailyStatsQuery(organizationId: string, since: string): SQL {
  // date_bin from a UTC midnight: the UTC day of an instant whatever the session's time zone.
  const utcDay = (column: string) => sql.raw(`date_bin('1 day', ${column}, timestamptz '2000-01-01T00:00:00Z')`);
  return sql`
    SELECT NULL AS day, k.kind, sum(g.n)::int AS n FROM (
      SELECT l.state, l.verdict_value, count(*) AS n
        FROM tracked_link l
        WHERE l.organization_id = ${organizationId}
        GROUP BY 1, 2
    ) AS g CROSS JOIN LATERAL (VALUES (g.state), (g.verdict_value)) AS k(kind)
    WHERE k.kind IS NOT NULL
    GROUP BY k.kind
    UNION ALL
    SELECT to_char(c.day AT TIME ZONE 'UTC', 'YYYY-MM-DD'), c.kind, sum(c.n)::int FROM (
      SELECT ${utcDay("l.created_at")} AS day, 'pending' AS kind, count(*) AS n
        FROM tracked_link l
        WHERE l.organization_id = ${organizationId} AND l.created_at >= ${since}::timestamptz
        GROUP BY 1
      UNION ALL
      SELECT d.day, k.kind, k.sign * d.n FROM (
        SELECT ${utcDay("t.created_at")} AS day, t.from_state, t.to_state, count(*) AS n
          FROM link_transition t
          WHERE t.organization_id = ${organizationId} AND t.created_at >= ${since}::timestamptz
          GROUP BY 1, 2, 3
      ) AS d CROSS JOIN LATERAL (VALUES (d.from_state, -1), (d.to_state, 1)) AS k(kind, sign)
      UNION ALL
      SELECT d.day, k.kind, k.sign * d.n FROM (
        SELECT ${utcDay("v.created_at")} AS day, v.from_value, v.to_value, count(*) AS n
          FROM verdict_transition v
          WHERE v.organization_id = ${organizationId} AND v.created_at >= ${since}::timestamptz
          GROUP BY 1, 2, 3
      ) AS d CROSS JOIN LATERAL (VALUES (d.from_value, -1), (d.to_value, 1)) AS k(kind, sign)
      WHERE k.kind IS NOT NULL
      UNION ALL
      SELECT ${utcDay("r.started_at")}, r.state, count(*)
        FROM retired_link_span r
        WHERE r.organization_id = ${organizationId} AND r.ended_at >= ${since}::timestamptz AND r.started_at >= ${since}::timestamptz
        GROUP BY 1, 2
      UNION ALL
      SELECT ${utcDay("r.ended_at")}, r.state, -count(*)
        FROM retired_link_span r
        WHERE r.organization_id = ${organizationId} AND r.ended_at >= ${since}::timestamptz
        GROUP BY 1, 2
      UNION ALL
      SELECT ${utcDay("r.started_at")}, r.value, count(*)
        FROM retired_verdict_span r
        WHERE r.organization_id = ${organizationId} AND r.ended_at >= ${since}::timestamptz AND r.started_at >= ${since}::timestamptz
        GROUP BY 1, 2
      UNION ALL
      SELECT ${utcDay("r.ended_at")}, r.value, -count(*)
        FROM retired_verdict_span r
        WHERE r.organization_id = ${organizationId} AND r.ended_at >= ${since}::timestamptz
        GROUP BY 1, 2
    ) AS c
    GROUP BY c.day, c.kind
  `;
}
