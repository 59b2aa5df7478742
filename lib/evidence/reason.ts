import type { EvidenceReason } from "../schemas/evidence";
import type { Verdict } from "../schemas/verdict";

/**
 * Why a check keeps evidence of a tracked link (evidence-and-reports.md), as a pure function of what the
 * check moved: the first time the link is live (`first_live`, which wins), a change of state
 * (`state_change`), else a change of the verdict's value with the state unchanged (`verdict_change`; a
 * first verdict, from none, is not a change). Null: the check changed nothing about the link, and takes
 * no screenshot for it.
 */
export interface EvidenceStep {
  stateBefore: string;
  stateAfter: string;
  /** Only the value counts: a change of reasons alone is not a change of verdict. */
  verdictBefore: Verdict | null;
  verdictAfter: Verdict | null;
  /** The link was live at some earlier check (a transition to `live` exists). */
  wasLiveBefore: boolean;
}

export function evidenceReason(step: EvidenceStep): Exclude<EvidenceReason, "manual"> | null {
  if (step.stateAfter === "live" && step.stateBefore !== "live" && !step.wasLiveBefore) return "first_live";
  if (step.stateAfter !== step.stateBefore) return "state_change";
  if (step.verdictBefore && step.verdictAfter && step.verdictBefore.value !== step.verdictAfter.value)
    return "verdict_change";
  return null;
}

/**
 * Whether a check may need evidence of the link, before it knows its history: every first_live is also a
 * change of state, so a screenshot is taken exactly for the links evidenceReason could name.
 */
export function mayNeedEvidence(step: Omit<EvidenceStep, "wasLiveBefore">): boolean {
  return evidenceReason({ ...step, wasLiveBefore: true }) !== null;
}
