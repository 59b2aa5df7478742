import type { LinkState } from "../schemas/monitors";
import type { VerdictReason, VerdictValue } from "../schemas/verdict";

/**
 * What changed in a report's period (pure): each tracked link in scope compared at the period's start
 * and end, from its state and verdict changes in between. A link is **lost** when it was on the page at
 * the start (live, rel_mismatch or anchor_mismatch) and is missing or broken at the end, **restored** the
 * other way round, and its **verdict changed** when it had a verdict at the start and has another at the
 * end. A link that went and came back within the period is neither (its state at both ends is the same);
 * a link never found (pending to missing) was not lost.
 */

const PRESENT: readonly LinkState[] = ["live", "rel_mismatch", "anchor_mismatch"];
const GONE: readonly LinkState[] = ["missing", "broken"];

export interface StateChange {
  trackedLinkId: string;
  fromState: LinkState;
  toState: LinkState;
  at: Date;
}

export interface VerdictChange {
  trackedLinkId: string;
  fromValue: VerdictValue | null;
  toValue: VerdictValue | null;
  at: Date;
}

export interface LinkPlace {
  id: string;
  pageUrl: string;
  target: string;
  /** The link's reasons now (the end of the period). */
  reasons: readonly VerdictReason[];
}

export interface MovedLink {
  pageUrl: string;
  target: string;
  from: LinkState;
  to: LinkState;
  /** When it took its end state. */
  at: Date;
}

export interface VerdictMove {
  pageUrl: string;
  target: string;
  from: VerdictValue;
  to: VerdictValue;
  reasons: readonly VerdictReason[];
  at: Date;
}

export interface PeriodChanges {
  lost: MovedLink[];
  restored: MovedLink[];
  verdicts: VerdictMove[];
}

/** The changes of `[start, end)` (changes outside it are ignored), ordered by page, then target. */
export function periodChanges(
  period: { start: Date; end: Date },
  places: readonly LinkPlace[],
  states: readonly StateChange[],
  verdicts: readonly VerdictChange[],
): PeriodChanges {
  const inside = <T extends { at: Date }>(rows: readonly T[]) =>
    [...rows].filter((row) => row.at >= period.start && row.at < period.end).sort((a, b) => +a.at - +b.at);
  const byLink = <T extends { trackedLinkId: string }>(rows: readonly T[]) => {
    const map = new Map<string, T[]>();
    for (const row of rows) map.set(row.trackedLinkId, [...(map.get(row.trackedLinkId) ?? []), row]);
    return map;
  };
  const stateMoves = byLink(inside(states));
  const verdictMoves = byLink(inside(verdicts));
  const answer: PeriodChanges = { lost: [], restored: [], verdicts: [] };
  const ordered = [...places].sort((a, b) => a.pageUrl.localeCompare(b.pageUrl) || a.target.localeCompare(b.target));
  for (const place of ordered) {
    const moves = stateMoves.get(place.id);
    const first = moves?.[0];
    const last = moves?.at(-1);
    if (first && last) {
      const moved = {
        pageUrl: place.pageUrl,
        target: place.target,
        from: first.fromState,
        to: last.toState,
        at: last.at,
      };
      if (PRESENT.includes(first.fromState) && GONE.includes(last.toState)) answer.lost.push(moved);
      if (GONE.includes(first.fromState) && PRESENT.includes(last.toState)) answer.restored.push(moved);
    }
    const changes = verdictMoves.get(place.id);
    const from = changes?.[0]?.fromValue;
    const to = changes?.at(-1)?.toValue;
    const at = changes?.at(-1)?.at;
    if (from && to && at && from !== to)
      answer.verdicts.push({ pageUrl: place.pageUrl, target: place.target, from, to, reasons: place.reasons, at });
  }
  return answer;
}
