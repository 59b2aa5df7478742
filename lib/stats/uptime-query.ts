import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { LinkState } from "../schemas/monitors";
import type { Uptime } from "../schemas/stats";
import { dayStart, windowDays } from "./days";
import { uptimeOf, type LinkHistory } from "./uptime";
import { rowsOf } from "./rows";

/**
 * The 90-day strips and live percentages: one query reads, for each tracked link asked for, its state
 * now, when it was created and first checked (link_observation's (tracked_link_id, created_at) index),
 * and its changes since the window's start (link_transition's (tracked_link_id, created_at) index);
 * lib/stats/uptime.ts does the rest. Used by GET /api/account/links/{id}/uptime (one link) and by the
 * share page and its CSV (a page of links at a time).
 */

/** Links per query: the id list stays a short IN (…). */
export const UPTIME_BATCH = 500;

interface Row {
  id: string;
  state: LinkState;
  created_ms: number;
  first_check_ms: number | null;
  changes: Array<[number, LinkState, LinkState]> | string;
}

/** The uptime of each of `linkIds` that belongs to the organization (others are simply absent). */
export async function uptimeOfLinks(
  db: Pick<Db, "execute">,
  organizationId: string,
  linkIds: readonly string[],
  count: number,
  now: Date,
): Promise<Map<string, Uptime>> {
  const days = windowDays(now, count);
  const since = dayStart(days[0] as string).toISOString();
  const answer = new Map<string, Uptime>();
  for (let start = 0; start < linkIds.length; start += UPTIME_BATCH) {
    const ids = linkIds.slice(start, start + UPTIME_BATCH);
    const result = await db.execute(sql`
      SELECT l.id, l.state,
        (extract(epoch FROM l.created_at) * 1000)::float8 AS created_ms,
        (SELECT (extract(epoch FROM min(o.created_at)) * 1000)::float8 FROM link_observation o WHERE o.tracked_link_id = l.id) AS first_check_ms,
        coalesce((
          SELECT json_agg(json_build_array((extract(epoch FROM t.created_at) * 1000)::float8, t.from_state, t.to_state) ORDER BY t.created_at, t.id)
            FROM link_transition t WHERE t.tracked_link_id = l.id AND t.created_at >= ${since}::timestamptz
        ), '[]'::json) AS changes
      FROM tracked_link l
      WHERE l.organization_id = ${organizationId} AND l.id IN ${ids}
    `);
    for (const row of rowsOf<Row>(result)) answer.set(row.id, uptimeOf(historyOf(row), days, now));
  }
  return answer;
}

function historyOf(row: Row): LinkHistory {
  // node-postgres parses json; PGlite may hand it over as text.
  const changes =
    typeof row.changes === "string" ? (JSON.parse(row.changes) as Row["changes"] & unknown[]) : row.changes;
  return {
    createdAt: new Date(Number(row.created_ms)),
    firstCheckAt: row.first_check_ms === null ? null : new Date(Number(row.first_check_ms)),
    state: row.state,
    changes: (changes as Array<[number, LinkState, LinkState]>).map(([at, from, to]) => ({
      at: new Date(Number(at)),
      from,
      to,
    })),
  };
}
