import { sql } from "drizzle-orm";
import { webhookDelivery } from "../db/schema";
import { log } from "../log";
import { runAttempt, type WebhookDeps } from "./attempt";
import { claimDueDeliveries, type ClaimLimits } from "./claim";
import { MAX_ATTEMPTS } from "./schedule";

/**
 * The webhook sender: its own loop on every instance, apart from the email sender and the monitor
 * checks, so a backlog of deliveries never holds up either. What it takes next, and how that stays fair
 * between organizations and endpoints across instances, is the claim's (./claim.ts).
 */

export interface SenderOptions extends ClaimLimits {
  /** Attempts in flight at once on this instance. */
  concurrency?: number;
}

/** Attempts in flight per instance when not told: four organizations at their cap (./claim.ts). */
const DEFAULT_CONCURRENCY = 32;

const LAST_ATTEMPT_LOST = "The sender stopped during the last attempt; no attempt remains.";

/** A claim that died on the last attempt (or a ping's, never retried) has nothing more to try: failed. */
export async function failAbandonedLastAttempts(deps: WebhookDeps): Promise<void> {
  await deps.db.execute(sql`
    UPDATE ${webhookDelivery} SET status = 'failed', lease_until = NULL, error = ${LAST_ATTEMPT_LOST}
    WHERE status = 'sending' AND lease_until <= ${deps.now().toISOString()}::timestamptz AND (attempts >= ${MAX_ATTEMPTS} OR type = 'ping')`);
}

export interface PassResult {
  attempted: number;
  delivered: number;
  failed: number;
}

/** One pass: claims up to `concurrency` due deliveries and attempts them all at once (tests and the benchmark drive it). */
export async function deliverDueWebhooks(deps: WebhookDeps, options: SenderOptions = {}): Promise<PassResult> {
  await failAbandonedLastAttempts(deps);
  const claimed = await claimDueDeliveries(deps, options.concurrency ?? DEFAULT_CONCURRENCY, options);
  const results = await Promise.all(claimed.map((delivery) => runAttempt(deps, delivery, "scheduled")));
  return {
    attempted: results.length,
    delivered: results.filter((r) => r.ok).length,
    failed: results.filter((r) => !r.ok).length,
  };
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
export function startWebhookSender(
  deps: WebhookDeps,
  options: SenderOptions & { intervalMs?: number; onError?: (error: unknown) => void } = {},
): RunningWebhookSender {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
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
              .catch((error: unknown) =>
                log.warn(
                  { err: error, deliveryId: delivery.id },
                  "webhook attempt could not be recorded; it is retried after its lease",
                ),
              )
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
