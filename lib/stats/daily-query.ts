import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { DailyStats } from "../schemas/stats";
import { dailyCounts, type Change } from "./daily";
import { nextDayStart, windowDays } from "./days";
import { emptyTally, isKind } from "./kinds";
import { rowsOf } from "./rows";

/**
 * GET /api/account/stats/daily: one query reads the organization's tracked links counted by kind now
 * and the changes since the window's first day, summed per UTC day and kind; lib/stats/daily.ts works
 * the days out backwards from there. Indexed: tracked_link (organization_id, state) and
 * (organization_id, created_at), link_transition (organization_id, created_at), retired_link_span
 * (organization_id, ended_at); a 30-day window reads only 29 days of changes. (Measured in
 * scripts/bench-stats.ts: docs/account-api.md gives the figures.)
 *
 * Every source lists its kinds in a `VALUES` of its own: today the link's state. When tracked links
 * carry a verdict (placement-verdict.md) and its changes are stored, adding the verdict is one more
 * tuple per source, e.g. `(VALUES (l.state), (l.verdict_value))` and the verdict changes' `(from, -1),
 * (to, +1)`: the counts, at_risk and does_not_count columns then fill themselves.
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
  const utcDay = (column: string) => sql.raw(`to_char((${column} AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD')`);
  const result = await ctx.db.execute(sql`
    SELECT NULL AS day, k.kind, count(*)::int AS n
      FROM tracked_link l CROSS JOIN LATERAL (VALUES (l.state)) AS k(kind)
      WHERE l.organization_id = ${organizationId}
      GROUP BY k.kind
    UNION ALL
    SELECT c.day, c.kind, sum(c.delta)::int AS n FROM (
      SELECT ${utcDay("l.created_at")} AS day, 'pending' AS kind, 1 AS delta
        FROM tracked_link l
        WHERE l.organization_id = ${organizationId} AND l.created_at >= ${since}::timestamptz
      UNION ALL
      SELECT ${utcDay("t.created_at")}, k.kind, k.delta
        FROM link_transition t CROSS JOIN LATERAL (VALUES (t.from_state, -1), (t.to_state, 1)) AS k(kind, delta)
        WHERE t.organization_id = ${organizationId} AND t.created_at >= ${since}::timestamptz
      UNION ALL
      SELECT ${utcDay("r.started_at")}, r.state, 1
        FROM retired_link_span r
        WHERE r.organization_id = ${organizationId} AND r.ended_at >= ${since}::timestamptz AND r.started_at >= ${since}::timestamptz
      UNION ALL
      SELECT ${utcDay("r.ended_at")}, r.state, -1
        FROM retired_link_span r
        WHERE r.organization_id = ${organizationId} AND r.ended_at >= ${since}::timestamptz
    ) AS c
    GROUP BY c.day, c.kind
  `);
  const current = emptyTally();
  const changes: Change[] = [];
  for (const row of rowsOf<Row>(result)) {
    if (!isKind(row.kind)) continue;
    if (row.day === null) current[row.kind] += Number(row.n);
    else changes.push({ day: row.day, kind: row.kind, delta: Number(row.n) });
  }
  return { days: dailyCounts(days, current, changes) };
}
