import type { DailyStatsDay } from "../schemas/stats";
import { dayOf, emptyTally, KINDS, type Kind, type Tally } from "./kinds";

/**
 * The portfolio per day, worked backwards from now: the links' counts now, minus every change made
 * after the end of a day, are the counts at the end of that day. A change is a +1 or −1 of one kind on
 * the UTC day it happened: a link created counts +1 pending, a state change −1 its old state and +1 its
 * new one, a deleted link's last state −1; verdicts likewise, except that a link has none at first, so
 * its first verdict is only +1 and a reset (a new target) only −1. So a link created mid-window is not
 * counted before its day, a deleted link not after its day, a link in no verdict before its first one,
 * and a day with no change simply repeats the next one's counts.
 */

export interface Change {
  /** The UTC day of the change ("YYYY-MM-DD"). */
  day: string;
  kind: Kind;
  /** The sum of the day's changes of this kind (positive: more links of this kind by the day's end). */
  delta: number;
}

/**
 * `days` oldest first (the last is today); `now` the counts at this moment; `changes` every change on
 * the days after the first (earlier ones are in every day's counts already; later ones than today, a
 * clock that moved back, count as if after today).
 */
export function dailyCounts(days: readonly string[], now: Tally, changes: readonly Change[]): DailyStatsDay[] {
  const byDay = new Map<string, Change[]>();
  for (const change of changes) byDay.set(change.day, [...(byDay.get(change.day) ?? []), change]);
  const running: Tally = { ...now };
  const last = days.at(-1);
  const undo = (list: readonly Change[]) => {
    for (const change of list) running[change.kind] -= change.delta;
  };
  if (last !== undefined) undo(changes.filter((change) => change.day > last));
  const answer: DailyStatsDay[] = [];
  for (let index = days.length - 1; index >= 0; index -= 1) {
    const day = days[index] as string;
    answer.push(dayOf(day, clamped(running)));
    undo(byDay.get(day) ?? []);
  }
  return answer.reverse();
}

/**
 * Never below zero: the history is written in the same transactions as the states, so a negative count
 * cannot come from consistent data; if it ever did, a chart must still draw.
 */
function clamped(tally: Tally): Tally {
  const out = emptyTally();
  for (const kind of KINDS) out[kind] = Math.max(0, tally[kind]);
  return out;
}
