import { eq, inArray, sql } from "drizzle-orm";
import { webhookDelivery, webhookEndpoint } from "../db/schema";
import type { ClaimedDelivery, WebhookDeps } from "./attempt";
import { MAX_ATTEMPTS } from "./schedule";

/**
 * The sender's claim: which due deliveries an instance attempts next. One statement on PGlite and
 * PostgreSQL, `FOR UPDATE SKIP LOCKED` with a lease, so each delivery is attempted by one instance at a
 * time and a dead sender's claim is taken over once its lease runs out (at least once).
 *
 * Fair across organizations like the monitor checks (lib/monitor/due.ts): attempts in flight are capped
 * per organization and per endpoint, counted over every instance (rows in `sending` whose lease still
 * runs), and a claim takes due deliveries ROUND-ROBIN by organization: every organization's oldest
 * first, then every organization's second, … So an organization whose receivers hang holds at most
 * `perOrganization` attempts however big its backlog, and another organization's delivery goes out in
 * the next claim instead of after those attempts time out. The endpoint cap, below the organization's,
 * does the same between one organization's endpoints: its dead CRM hook leaves room for its Slack.
 *
 * Two instances claiming at the same moment both see the same attempts in flight, so a cap can be
 * passed briefly (by at most one claim's worth per instance), never for long: the next claim sees it.
 *
 * Each enabled endpoint's due index is read for at most its room, so a claim costs in proportion to
 * the endpoints, not to the backlog: with 1,000,000 deliveries waiting behind one organization and
 * 4,000 endpoints with due work, about 0.2 s on PostgreSQL on a loaded 2-core machine; 25–30 ms with
 * 1,000 endpoints, as before the caps per organization.
 */

export interface ClaimLimits {
  /** Attempts in flight at once per organization, all instances together. */
  perOrganization?: number;
  /** Attempts in flight at once per endpoint, all instances together. */
  perEndpoint?: number;
  /** How long a claim holds a delivery: well past one attempt's 10 s. */
  leaseMs?: number;
}

/**
 * A quarter of an instance's 32 slots per organization; half of that per endpoint. Slack takes about
 * one message a second per incoming webhook, and a team's own receiver rarely wants more than a few
 * requests at once, so the endpoint cap costs a backlog little and keeps one dead endpoint from
 * holding all of its organization's slots.
 */
export const CLAIM_DEFAULTS = { perOrganization: 8, perEndpoint: 4, leaseMs: 60_000 } satisfies Required<ClaimLimits>;

interface ClaimRow {
  id: string;
  endpoint_id: string;
  type: string;
  payload: Record<string, unknown> | string;
  attempts: number;
  created_at: Date | string;
  previous: ClaimedDelivery["previousStatus"];
  url: string;
  kind: ClaimedDelivery["endpoint"]["kind"];
  secret_ciphertext: string;
  round: number | string;
  due: Date | string;
}

/**
 * Claims up to `limit` due deliveries for this instance, in claim order (round, then oldest due), with
 * what their attempts need (the endpoint's URL, kind and secret as they are now: a rotated secret signs
 * the next attempt). Due: `pending` whose next attempt has come, or `sending` whose lease ran out (its
 * sender died) with attempts left.
 */
export async function claimDueDeliveries(
  deps: WebhookDeps,
  limit: number,
  limits: ClaimLimits = {},
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { perOrganization, perEndpoint, leaseMs } = { ...CLAIM_DEFAULTS, ...limits };
  const now = deps.now();
  const at = sql`${now.toISOString()}::timestamptz`;
  // Room per endpoint: what both caps leave it (never below 0: a cap passed by a race leaves none).
  const room = sql`GREATEST(LEAST(${perEndpoint}::int - e.in_flight, ${perOrganization}::int - e.org_in_flight), 0)`;
  const claimed = await deps.db.execute(sql`
    WITH in_flight AS (
      SELECT endpoint_id, organization_id, count(*)::int AS n FROM ${webhookDelivery}
      WHERE status = 'sending' AND lease_until > ${at}
      GROUP BY endpoint_id, organization_id
    ),
    org_in_flight AS (
      SELECT organization_id, sum(n)::int AS n FROM in_flight GROUP BY organization_id
    ),
    endpoints AS (
      SELECT e.id, e.organization_id, COALESCE(f.n, 0) AS in_flight, COALESCE(o.n, 0) AS org_in_flight
      FROM ${webhookEndpoint} e
      LEFT JOIN in_flight f ON f.endpoint_id = e.id
      LEFT JOIN org_in_flight o ON o.organization_id = e.organization_id
      WHERE e.enabled
    ),
    candidates AS (
      SELECT e.organization_id, ${perOrganization}::int - e.org_in_flight AS org_room, c.id, c.due FROM endpoints e
      CROSS JOIN LATERAL (
        SELECT id, due FROM (
          (SELECT d.id, d.next_attempt_at AS due FROM ${webhookDelivery} d
            WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ${at}
            ORDER BY d.next_attempt_at, d.id LIMIT ${room})
          UNION ALL
          (SELECT d.id, d.lease_until AS due FROM ${webhookDelivery} d
            WHERE d.endpoint_id = e.id AND d.status = 'sending' AND d.lease_until <= ${at} AND d.attempts < ${MAX_ATTEMPTS} AND d.type <> 'ping'
            ORDER BY d.lease_until, d.id LIMIT ${room})
        ) due_here
        ORDER BY due, id LIMIT ${room}
      ) c
    ),
    ranked AS (
      SELECT id, due, org_room, row_number() OVER (PARTITION BY organization_id ORDER BY due, id) AS round FROM candidates
    ),
    picked AS (
      SELECT id, due, round FROM ranked WHERE round <= org_room ORDER BY round, due, id LIMIT ${limit}
    ),
    locked AS (
      SELECT id, status FROM ${webhookDelivery}
      WHERE id IN (SELECT id FROM picked)
        AND ((status = 'pending' AND next_attempt_at <= ${at}) OR (status = 'sending' AND lease_until <= ${at}))
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${webhookDelivery} d SET status = 'sending', lease_until = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz,
      attempts = d.attempts + 1, last_attempt_at = ${at}
    FROM locked, picked, ${webhookEndpoint} e
    WHERE d.id = locked.id AND picked.id = d.id AND e.id = d.endpoint_id
    RETURNING d.id, d.endpoint_id, d.type, d.payload, d.attempts, d.created_at, locked.status AS previous, e.url, e.kind, e.secret_ciphertext,
      picked.round, picked.due`);
  const rows = (claimed as unknown as { rows: ClaimRow[] }).rows;
  // RETURNING has no order: put the claim's back (the attempts start in it).
  rows.sort(
    (a, b) =>
      Number(a.round) - Number(b.round) ||
      new Date(a.due).getTime() - new Date(b.due).getTime() ||
      (a.id < b.id ? -1 : 1),
  );
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    type: row.type,
    // The two drivers differ: pg parses jsonb and timestamptz, raw PGlite rows may not.
    payload: typeof row.payload === "string" ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
    previousStatus: row.previous,
    endpoint: { url: row.url, kind: row.kind, secretCiphertext: row.secret_ciphertext },
  }));
}

/** Claimed rows read back with their endpoint (a person's retry or ping claims by id, then reads them here). */
export async function loadClaimed(
  deps: WebhookDeps,
  claims: ReadonlyArray<{ id: string; attempts: number; previous: string }>,
): Promise<ClaimedDelivery[]> {
  const rows = await deps.db
    .select({
      delivery: webhookDelivery,
      endpoint: {
        url: webhookEndpoint.url,
        kind: webhookEndpoint.kind,
        secretCiphertext: webhookEndpoint.secretCiphertext,
      },
    })
    .from(webhookDelivery)
    .innerJoin(webhookEndpoint, eq(webhookEndpoint.id, webhookDelivery.endpointId))
    .where(
      inArray(
        webhookDelivery.id,
        claims.map((claim) => claim.id),
      ),
    );
  const byId = new Map(claims.map((claim) => [claim.id, claim]));
  return rows.map(({ delivery, endpoint }) => ({
    id: delivery.id,
    endpointId: delivery.endpointId,
    type: delivery.type,
    payload: delivery.payload,
    attempts: Number(byId.get(delivery.id)?.attempts ?? delivery.attempts),
    createdAt: delivery.createdAt,
    previousStatus: (byId.get(delivery.id)?.previous ?? "pending") as ClaimedDelivery["previousStatus"],
    endpoint,
  }));
}
