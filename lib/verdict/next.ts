import type { Verdict } from "../schemas/verdict";
import { verdictOf, type VerdictInput } from "./reasons";

/**
 * When a check moves a tracked link's verdict (placement-verdict.md), as a pure function of what the
 * check saw and what was stored:
 *  - a check with a page error never gets here: the last verdict stays;
 *  - null until the first check that loaded the page and found the link, or that confirmed its loss;
 *  - verdicts do not wait for confirmation, except that `missing` and `broken_target` follow the
 *    state: a first miss (the link not seen, its state not yet `missing`) keeps the last verdict (null
 *    for a link never seen); `broken_target` applies once the state is `broken`;
 *  - a confirmed loss says `does_not_count` with `missing` (and `removed_by_script`) whether or not the
 *    link was ever seen: a placement that a script takes out from its first day is exactly what a buyer
 *    must be told;
 *  - the first verdict a link gets (from null) is not a change; a change of `value` is, and makes a
 *    `verdict_changed` event unless the check wrote another event for the link.
 */

export interface VerdictStep {
  /** The verdict the link had. */
  previous: Verdict | null;
  /** The state after this check (the state machine's answer). */
  state: string;
  /** What this check saw, for the verdict (link null: not on the page). */
  input: VerdictInput;
}

export interface VerdictMove {
  verdict: Verdict | null;
  /** The value changed from a previous verdict (not from null). */
  changed: boolean;
}

export function nextVerdict(step: VerdictStep): VerdictMove {
  const { previous, input } = step;
  let verdict: Verdict | null;
  if (input.link === null) {
    // Not on the page: only a confirmed loss says "missing" (seen before or never); a first miss waits.
    verdict = step.state === "missing" ? verdictOf({ ...input, broken: false }) : previous;
  } else {
    verdict = verdictOf({ ...input, broken: step.state === "broken" });
  }
  return { verdict, changed: previous !== null && verdict !== null && verdict.value !== previous.value };
}

/** Whether a check writes `verdict_changed` for the link: the value changed and no other event of this check names the link. */
export function verdictEventDue(move: VerdictMove, otherEventsForLink: number): boolean {
  return move.changed && otherEventsForLink === 0;
}
