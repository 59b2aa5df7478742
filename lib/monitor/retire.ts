import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

/**
 * Before tracked links are deleted (one, or a monitor's), their history becomes spans: in
 * retired_link_span their states ([created, first change) pending, then each change's state until the
 * next, the last one until the deletion), in retired_verdict_span their verdicts (each value from the
 * change that gave it until the next change; no span while they had none). Their transitions go with the
 * link, but the portfolio's daily counts (lib/stats) keep counting the link on the days it existed, in
 * the state and verdict it had. Run inside the deleting transaction.
 */
export async function retireLinks(
  tx: Pick<Db, "execute">,
  organizationId: string,
  which: { linkId: string } | { monitorId: string },
  now: Date,
): Promise<void> {
  const chosen = "linkId" in which ? sql`l.id = ${which.linkId}` : sql`l.monitor_id = ${which.monitorId}`;
  const deletedAt = now.toISOString();
  await tx.execute(sql`
    INSERT INTO retired_link_span (id, organization_id, tracked_link_id, state, started_at, ended_at)
    SELECT gen_random_uuid()::text, l.organization_id, l.id, s.state, s.started_at, greatest(coalesce(s.ended_at, ${deletedAt}::timestamptz), s.started_at)
      FROM tracked_link l
      CROSS JOIN LATERAL (
        SELECT 'pending' AS state, l.created_at AS started_at,
          (SELECT min(t.created_at) FROM link_transition t WHERE t.tracked_link_id = l.id) AS ended_at
        UNION ALL
        SELECT t.to_state, t.created_at, lead(t.created_at) OVER (ORDER BY t.created_at, t.id)
          FROM link_transition t WHERE t.tracked_link_id = l.id
      ) AS s
      WHERE l.organization_id = ${organizationId} AND ${chosen}
  `);
  await tx.execute(sql`
    INSERT INTO retired_verdict_span (id, organization_id, tracked_link_id, value, started_at, ended_at)
    SELECT gen_random_uuid()::text, l.organization_id, l.id, s.value, s.started_at, greatest(coalesce(s.ended_at, ${deletedAt}::timestamptz), s.started_at)
      FROM tracked_link l
      CROSS JOIN LATERAL (
        SELECT v.to_value AS value, v.created_at AS started_at, lead(v.created_at) OVER (ORDER BY v.created_at, v.id) AS ended_at
          FROM verdict_transition v WHERE v.tracked_link_id = l.id
      ) AS s
      WHERE l.organization_id = ${organizationId} AND ${chosen} AND s.value IS NOT NULL
  `);
}
