import { eq, inArray, sql } from "drizzle-orm";
import { webhookDelivery, webhookEndpoint } from "../db/schema";
import { log } from "../log";
import { runAttempt, type ClaimedDelivery, type WebhookDeps } from "./attempt";
import { MAX_ATTEMPTS } from "./schedule";

/**
 * The webhook sender: its own loop on every instance, apart from the email sender and the monitor
 * checks, so a backlog of deliveries never holds up either. Claims are `FOR UPDATE SKIP LOCKED` with a
 * lease, so each delivery is attempted by one instance at a time and a dead sender's claim is taken
 * over once its lease runs out (at least once). A claim takes due deliveries oldest first but at most
 * `perEndpoint` in flight per endpoint across instances, so one slow or hanging receiver cannot take
 * every slot while other teams' deliveries wait.
 */

export interface SenderOptions {
  /** Attempts in flight at once on this instance. */
  concurrency?: number;
  /** Attempts in flight at once per endpoint (all instances; two claims at the same moment may pass it briefly). */
  perEndpoint?: number;
  /** How long a claim holds a delivery: well past one attempt's 10 s. */
  leaseMs?: number;
}

const DEFAULTS = { concurrency: 32, perEndpoint: 16, leaseMs: 60_000 } satisfies Required<SenderOptions>;

const LAST_ATTEMPT_LOST = "The sender stopped during the last attempt; no attempt remains.";

/** A claim that died on the last attempt (or a ping's, never retried) has nothing more to try: failed. */
export async function failAbandonedLastAttempts(deps: WebhookDeps): Promise<void> {
  await deps.db.execute(sql`
    UPDATE ${webhookDelivery} SET status = 'failed', lease_until = NULL, error = ${LAST_ATTEMPT_LOST}
    WHERE status = 'sending' AND lease_until <= ${deps.now().toISOString()}::timestamptz AND (attempts >= ${MAX_ATTEMPTS} OR type = 'ping')`);
}

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
}

/**
 * Claims up to `limit` due deliveries for this instance, with what their attempts need (the endpoint's
 * URL, kind and secret as they are now: a rotated secret signs the next attempt).
 */
export async function claimDueDeliveries(deps: WebhookDeps, limit: number, options: SenderOptions = {}): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { perEndpoint, leaseMs } = { ...DEFAULTS, ...options };
  const now = deps.now();
  const at = sql`${now.toISOString()}::timestamptz`;
  const claimed = await deps.db.execute(sql`
    WITH candidates AS (
      SELECT c.id, c.due FROM ${webhookEndpoint} e
      CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at AS due FROM ${webhookDelivery} d
        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ${at}
        ORDER BY d.next_attempt_at, d.id
        LIMIT ${perEndpoint}
      ) c
      WHERE e.enabled AND (SELECT count(*) FROM ${webhookDelivery} s WHERE s.endpoint_id = e.id AND s.status = 'sending' AND s.lease_until > ${at}) < ${perEndpoint}
      UNION ALL
      SELECT d.id, d.lease_until AS due FROM ${webhookDelivery} d
      JOIN ${webhookEndpoint} e ON e.id = d.endpoint_id AND e.enabled
      WHERE d.status = 'sending' AND d.lease_until <= ${at} AND d.attempts < ${MAX_ATTEMPTS} AND d.type <> 'ping'
    ),
    locked AS (
      SELECT id, status FROM ${webhookDelivery}
      WHERE id IN (SELECT id FROM candidates ORDER BY due, id LIMIT ${limit})
        AND ((status = 'pending' AND next_attempt_at <= ${at}) OR (status = 'sending' AND lease_until <= ${at}))
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${webhookDelivery} d SET status = 'sending', lease_until = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz,
      attempts = d.attempts + 1, last_attempt_at = ${at}
    FROM locked, ${webhookEndpoint} e
    WHERE d.id = locked.id AND e.id = d.endpoint_id
    RETURNING d.id, d.endpoint_id, d.type, d.payload, d.attempts, d.created_at, locked.status AS previous, e.url, e.kind, e.secret_ciphertext`);
  const rows = (claimed as unknown as { rows: ClaimRow[] }).rows;
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
export async function loadClaimed(deps: WebhookDeps, claims: ReadonlyArray<{ id: string; attempts: number; previous: string }>): Promise<ClaimedDelivery[]> {
  const rows = await deps.db
    .select({ delivery: webhookDelivery, endpoint: { url: webhookEndpoint.url, kind: webhookEndpoint.kind, secretCiphertext: webhookEndpoint.secretCiphertext } })
    .from(webhookDelivery)
    .innerJoin(webhookEndpoint, eq(webhookEndpoint.id, webhookDelivery.endpointId))
    .where(inArray(webhookDelivery.id, claims.map((claim) => claim.id)));
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

export interface PassResult {
  attempted: number;
  delivered: number;
  failed: number;
}

/** One pass: claims up to `concurrency` due deliveries and attempts them all at once (tests and the benchmark drive it). */
export async function deliverDueWebhooks(deps: WebhookDeps, options: SenderOptions = {}): Promise<PassResult> {
  await failAbandonedLastAttempts(deps);
  const claimed = await claimDueDeliveries(deps, options.concurrency ?? DEFAULTS.concurrency, options);
  const results = await Promise.all(claimed.map((delivery) => runAttempt(deps, delivery, "scheduled")));
  return { attempted: results.length, delivered: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length };
}

export interface RunningWebhookSender {
  /** Claims now if there are free slots. */
  kick: () => Promise<void>;
  /** Stops claiming and waits (at most `graceMs`) for attempts in flight; unfinished claims are retried after their lease. */
  stop: (graceMs?: number) => Promise<void>;
  inFlight: () => number;
}

/**
 * Keeps up to `concurrency` attempts in flight: claims when slots are free, every `intervalMs` and as
 * soon as an attempt ends (a backlog drains at the receivers' pace, not the poll's).
 */
export function startWebhookSender(deps: WebhookDeps, options: SenderOptions & { intervalMs?: number; onError?: (error: unknown) => void } = {}): RunningWebhookSender {
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  let inFlight = 0;
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let again = false;
  const pump = (): Promise<void> => {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        while (!stopped && inFlight < concurrency) {
          const claimed = await claimDueDeliveries(deps, concurrency - inFlight, options);
          if (claimed.length === 0) break;
          for (const delivery of claimed) {
            inFlight += 1;
            runAttempt(deps, delivery, "scheduled")
              .catch((error: unknown) => log.warn({ err: error, deliveryId: delivery.id }, "webhook attempt could not be recorded; it is retried after its lease"))
              .finally(() => {
                inFlight -= 1;
                if (!stopped) void pump();
              });
          }
        }
      } while (again && !stopped);
    })()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        pumping = null;
      });
    return pumping;
  };
  const tick = () => {
    failAbandonedLastAttempts(deps)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => void pump());
  };
  const timer = setInterval(tick, options.intervalMs ?? 1_000);
  timer.unref();
  tick();
  return {
    kick: pump,
    inFlight: () => inFlight,
    stop: async (graceMs = 4_000) => {
      stopped = true;
      clearInterval(timer);
      await pumping;
      const deadline = Date.now() + graceMs;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    },
  };
}
