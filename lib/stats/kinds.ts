import { LINK_STATES, type LinkState } from "../schemas/monitors";
import type { DailyStatsDay } from "../schemas/stats";
import { VERDICT_VALUES, type VerdictValue } from "../schemas/verdict";

/**
 * What a daily count counts: the link states, and the verdict values of placement-verdict.md. Each
 * tracked link is in one state and (once it has one) one verdict at any moment, so every kind is a
 * tally of its own; the daily query reports changes of both the same way.
 */
export type Kind = LinkState | VerdictValue;
export const KINDS: readonly Kind[] = [...LINK_STATES, ...VERDICT_VALUES];

export function isKind(value: unknown): value is Kind {
  return typeof value === "string" && (KINDS as readonly string[]).includes(value);
}

export type Tally = Record<Kind, number>;

export function emptyTally(): Tally {
  return Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Tally;
}

/** One day of GET /stats/daily, fields in the answer's order. */
export function dayOf(date: string, tally: Tally): DailyStatsDay {
  return {
    date,
    live: tally.live,
    missing: tally.missing,
    broken: tally.broken,
    rel_mismatch: tally.rel_mismatch,
    anchor_mismatch: tally.anchor_mismatch,
    pending: tally.pending,
    counts: tally.counts,
    at_risk: tally.at_risk,
    does_not_count: tally.does_not_count,
  };
}
