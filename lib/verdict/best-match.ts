import type { Verdict } from "../schemas/verdict";
import { verdictRank } from "./reasons";

/**
 * The best match among the links of a page that match a tracked link (placement-verdict.md): the first
 * that counts, else the first at risk, else the first. Where two rank the same, one that meets the
 * tracked link's expectations (expected rel and anchor) comes before one that does not, so the state
 * machine keeps describing the placement the user told us about; then document order.
 */
export interface Candidate<Link> {
  link: Link;
  verdict: Verdict;
  /** The link meets the tracked link's expectations (its observed state would be `live`). */
  meetsExpectations: boolean;
}

export function bestMatch<Link>(candidates: readonly Candidate<Link>[]): Candidate<Link> | null {
  let best: Candidate<Link> | null = null;
  for (const candidate of candidates) {
    if (best === null || isBetter(candidate, best)) best = candidate;
  }
  return best;
}

function isBetter<Link>(candidate: Candidate<Link>, best: Candidate<Link>): boolean {
  const rank = verdictRank(candidate.verdict.value) - verdictRank(best.verdict.value);
  if (rank !== 0) return rank < 0;
  return candidate.meetsExpectations && !best.meetsExpectations;
}
