/**
 * When a monitor is checked next, as a pure function of what its check found (tests move the clock).
 *
 * - After a check that loaded the page: one interval later, plus a jitter of up to min(5 % of the
 *   interval, 10 minutes), so monitors created together (an import of 5,000) drift apart instead of
 *   hitting the job queue, the browser and the sites at the same instant forever.
 * - A link that awaits confirmation of a loss: at most MONITOR_CONFIRM_DELAY_MINUTES later (the spec's
 *   "within 15 minutes"), never a whole interval.
 * - After a page error: retry with backoff, MONITOR_CONFIRM_DELAY_MINUTES × 2^(errors − 1), capped at the
 *   interval (a site down for a day is retried at 10, 20, 40, 80… minutes, not hammered).
 */

import type { Config } from "../config";

/**
 * Checks one instance runs at once: MONITOR_CONCURRENCY, or by default one less than its render slots
 * (MAX_CONCURRENT_RENDERS), at least one. Every check is a render, so the render slots are what the
 * machine can carry; the slot left over is the public analyzer's: scheduled checks can never take every
 * slot, so a public analysis (or a "Check now") never waits for a check's render to end, and its render
 * goes first in line anyway (lib/analyzer/render/queue.ts). Measured on 2 cores (docs/scaling.md): two checks per
 * instance (all slots) made public URL mode 5× slower while checks ran and did not raise throughput,
 * the machine being CPU-bound already; raise MAX_CONCURRENT_RENDERS on a bigger machine and the checks
 * follow.
 */
export function monitorConcurrency(config: Pick<Config, "MONITOR_CONCURRENCY" | "MAX_CONCURRENT_RENDERS">): number {
  return config.MONITOR_CONCURRENCY ?? Math.max(1, config.MAX_CONCURRENT_RENDERS - 1);
}

export interface ScheduleInput {
  now: Date;
  intervalMinutes: number;
  outcome: "ok" | "page_error";
  /** After this check (page errors in a row). */
  consecutivePageErrors: number;
  /** Some tracked link saw a first loss that the next check must confirm. */
  awaitingConfirmation: boolean;
  confirmDelayMinutes: number;
  /** A number in [0, 1): Math.random in production, fixed in tests. */
  random: number;
}

const MINUTE = 60_000;
const MAX_JITTER_MINUTES = 10;

/** The largest jitter an interval gets, in milliseconds. */
export function maxJitterMs(intervalMinutes: number): number {
  return Math.min(intervalMinutes * 0.05, MAX_JITTER_MINUTES) * MINUTE;
}

export function nextCheckAt(input: ScheduleInput): Date {
  const now = input.now.getTime();
  const interval = input.intervalMinutes * MINUTE;
  const confirmDelay = input.confirmDelayMinutes * MINUTE;
  if (input.outcome === "page_error") {
    const backoff = confirmDelay * 2 ** Math.max(0, input.consecutivePageErrors - 1);
    return new Date(now + Math.min(interval, backoff));
  }
  const regular =
    now + interval + Math.floor(Math.min(Math.max(input.random, 0), 0.999_999) * maxJitterMs(input.intervalMinutes));
  return new Date(input.awaitingConfirmation ? Math.min(regular, now + confirmDelay) : regular);
}
