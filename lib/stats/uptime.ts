import type { LinkState } from "../schemas/monitors";
import type { Uptime } from "../schemas/stats";
import { dayStart, nextDayStart } from "./days";

/**
 * One tracked link's history in a window of days, from what is stored: its state now, when it was
 * created and first checked, and its state changes since the window began (evidence-and-reports.md:
 * `GET /api/account/links/{id}/uptime`). Pure: lib/stats/uptime-query.ts only reads these rows.
 */

export interface StateChange {
  at: Date;
  from: LinkState;
  to: LinkState;
}

export interface LinkHistory {
  createdAt: Date;
  /** The first check that looked for it (null: never checked). */
  firstCheckAt: Date | null;
  /** Its state now. */
  state: LinkState;
  /** Changes at or after the window's first instant, oldest first (earlier ones are not needed). */
  changes: readonly StateChange[];
}

/**
 * The state just after every change before `end` (exclusive): the last such change's new state; with
 * none, the state the first later change started from; with no change at all, the state now. Null when
 * the link did not exist yet.
 */
export function stateBefore(history: LinkHistory, end: Date): LinkState | null {
  if (history.createdAt.getTime() >= end.getTime()) return null;
  let state: LinkState | null = null;
  for (const change of history.changes) {
    if (change.at.getTime() >= end.getTime()) return state ?? change.from;
    state = change.to;
  }
  return state ?? history.state;
}

/** The state at the end of each day (changes at `now` or before count for today), null before it existed. */
export function dayStates(
  history: LinkHistory,
  days: readonly string[],
  now: Date,
): Array<{ date: string; state: LinkState | null }> {
  const justAfterNow = new Date(now.getTime() + 1);
  return days.map((date) => {
    const next = nextDayStart(date);
    return { date, state: stateBefore(history, next.getTime() > now.getTime() ? justAfterNow : next) };
  });
}

/**
 * Of the time from the window's start (or the first check, if later) to now, the share in which the link
 * was `live`, in percent with one decimal; null before its first check. Rounding never claims a perfect
 * or a nil record that was not: 99.96 % is 99.9, 0.04 % is 0.1.
 */
export function livePercent(history: LinkHistory, windowStart: Date, now: Date): number | null {
  if (!history.firstCheckAt || history.firstCheckAt.getTime() > now.getTime()) return null;
  const from = Math.max(windowStart.getTime(), history.firstCheckAt.getTime());
  const to = now.getTime();
  if (to <= from) return stateBefore(history, new Date(to + 1)) === "live" ? 100 : 0;
  let live = 0;
  let at = from;
  let state = stateBefore(history, new Date(from + 1));
  for (const change of history.changes) {
    const time = change.at.getTime();
    if (time <= from) continue;
    if (time > to) break;
    if (state === "live") live += time - at;
    at = time;
    state = change.to;
  }
  if (state === "live") live += to - at;
  return roundShare(live, to - from);
}

/** `part / whole` in percent, one decimal, never rounded to 100 or 0 unless exactly so. */
export function roundShare(part: number, whole: number): number {
  if (part >= whole) return 100;
  if (part <= 0) return 0;
  const rounded = Math.round((part / whole) * 1000) / 10;
  return Math.min(99.9, Math.max(0.1, rounded));
}

/** The answer for a window of `days` ending today. */
export function uptimeOf(history: LinkHistory, days: readonly string[], now: Date): Uptime {
  const first = days[0];
  return {
    livePercent: first === undefined ? null : livePercent(history, dayStart(first), now),
    days: dayStates(history, days, now),
  };
}
