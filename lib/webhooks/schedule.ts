/**
 * The retry schedule of a webhook delivery (webhooks.md "Delivery"): 8 attempts in all; after the n-th
 * failed one the next comes `RETRY_STEPS[n-1]` × WEBHOOK_RETRY_BASE_SECONDS later — with the default 60 s
 * about 1 min, 5 min, 30 min, 2 h, 8 h, then every 24 h. Pure.
 */

export const MAX_ATTEMPTS = 8;

/** Multiples of the base after attempts 1…7 (attempt 8 is the last: no delay follows it). */
export const RETRY_STEPS = [1, 5, 30, 120, 480, 1440, 1440] as const;

/** How long to wait after `attemptsMade` failed attempts, ms; null when none remains. */
export function retryDelayMs(attemptsMade: number, baseSeconds: number): number | null {
  if (attemptsMade < 1 || attemptsMade >= MAX_ATTEMPTS) return null;
  const step = RETRY_STEPS[attemptsMade - 1] ?? 1440;
  return Math.round(step * baseSeconds * 1000);
}

/** What a failed attempt leads to: another attempt at `nextAttemptAt`, or the end (`failed`). */
export function afterFailure(
  attemptsMade: number,
  baseSeconds: number,
  now: Date,
): { status: "pending"; nextAttemptAt: Date } | { status: "failed" } {
  const delay = retryDelayMs(attemptsMade, baseSeconds);
  return delay === null ? { status: "failed" } : { status: "pending", nextAttemptAt: new Date(now.getTime() + delay) };
}
