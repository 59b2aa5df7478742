import { describe, expect, it } from "vitest";
import { evidenceReason, mayNeedEvidence, type EvidenceStep } from "@/lib/evidence/reason";
import type { EvidenceReason } from "@/lib/schemas/evidence";
import type { Verdict } from "@/lib/schemas/verdict";

const counts: Verdict = { value: "counts", reasons: [] };
const nofollow: Verdict = { value: "does_not_count", reasons: ["nofollow"] };
const atRisk: Verdict = { value: "at_risk", reasons: ["script_only"] };

const step = (over: Partial<EvidenceStep>): EvidenceStep => ({
  stateBefore: "live",
  stateAfter: "live",
  verdictBefore: counts,
  verdictAfter: counts,
  wasLiveBefore: true,
  ...over,
});

describe("why a check keeps evidence (evidence-and-reports.md)", () => {
  const cases: [string, EvidenceStep, EvidenceReason | null][] = [
    [
      "pending → live, never live before",
      step({ stateBefore: "pending", verdictBefore: null, wasLiveBefore: false }),
      "first_live",
    ],
    [
      "rel_mismatch → live, never live before (first_live wins over the state change)",
      step({ stateBefore: "rel_mismatch", verdictBefore: nofollow, wasLiveBefore: false }),
      "first_live",
    ],
    [
      "missing → live, live before",
      step({ stateBefore: "missing", verdictBefore: { value: "does_not_count", reasons: ["missing"] } }),
      "state_change",
    ],
    [
      "live → missing",
      step({ stateAfter: "missing", verdictAfter: { value: "does_not_count", reasons: ["missing"] } }),
      "state_change",
    ],
    [
      "pending → missing, never seen (its first verdict comes with the confirmed loss)",
      step({
        stateBefore: "pending",
        stateAfter: "missing",
        verdictBefore: null,
        verdictAfter: { value: "does_not_count", reasons: ["missing", "removed_by_script"] },
        wasLiveBefore: false,
      }),
      "state_change",
    ],
    [
      "pending → rel_mismatch (seen, not live)",
      step({
        stateBefore: "pending",
        stateAfter: "rel_mismatch",
        verdictBefore: null,
        verdictAfter: nofollow,
        wasLiveBefore: false,
      }),
      "state_change",
    ],
    ["live, counts → does_not_count", step({ verdictAfter: nofollow }), "verdict_change"],
    ["live, counts → at_risk", step({ verdictAfter: atRisk }), "verdict_change"],
    [
      "live, reasons change but not the value",
      step({ verdictBefore: nofollow, verdictAfter: { value: "does_not_count", reasons: ["nofollow", "hidden"] } }),
      null,
    ],
    [
      "a first verdict (from none) with the state unchanged",
      step({ verdictBefore: null, verdictAfter: nofollow }),
      null,
    ],
    ["nothing moved", step({}), null],
    ["a first miss waiting for its confirmation (state and verdict kept)", step({}), null],
  ];
  it.each(cases)("%s → %s", (_name, input, reason) => {
    expect(evidenceReason(input)).toBe(reason);
  });

  it("takes a screenshot before the transaction exactly when a reason can follow", () => {
    const cases: EvidenceStep[] = [
      step({}),
      step({ stateBefore: "pending", wasLiveBefore: false }),
      step({ verdictAfter: nofollow }),
      step({ stateAfter: "broken" }),
      step({ verdictBefore: null, verdictAfter: nofollow }),
    ];
    for (const input of cases) {
      const { wasLiveBefore: _known, ...before } = input;
      expect(mayNeedEvidence(before), JSON.stringify(input)).toBe(
        evidenceReason(input) !== null || evidenceReason({ ...input, wasLiveBefore: false }) !== null,
      );
    }
  });
});
