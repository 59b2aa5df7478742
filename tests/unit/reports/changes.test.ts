import { describe, expect, it } from "vitest";
import { periodChanges, type LinkPlace, type StateChange, type VerdictChange } from "@/lib/reports/changes";
import type { LinkState } from "@/lib/schemas/monitors";
import type { VerdictValue } from "@/lib/schemas/verdict";

/**
 * What a scheduled report says changed in its period: each link compared at the period's start and end.
 * Every row is one link's changes; the table says whether it is lost, restored, or neither.
 */

const period = { start: new Date("2031-03-03T09:00:00Z"), end: new Date("2031-03-10T09:00:00Z") };
const inside = (day: number, hour = 12) => new Date(Date.UTC(2031, 2, day, hour));
const place: LinkPlace = {
  id: "l1",
  pageUrl: "https://blog.example/post",
  target: "https://mine.example/",
  reasons: [],
};
const state = (from: LinkState, to: LinkState, at: Date): StateChange => ({
  trackedLinkId: "l1",
  fromState: from,
  toState: to,
  at,
});
const verdict = (from: VerdictValue | null, to: VerdictValue | null, at: Date): VerdictChange => ({
  trackedLinkId: "l1",
  fromValue: from,
  toValue: to,
  at,
});

describe("periodChanges: lost and restored", () => {
  it.each<[string, StateChange[], "lost" | "restored" | "neither"]>([
    ["live → missing", [state("live", "missing", inside(5))], "lost"],
    ["live → broken", [state("live", "broken", inside(5))], "lost"],
    ["rel_mismatch → missing", [state("rel_mismatch", "missing", inside(5))], "lost"],
    ["anchor_mismatch → broken", [state("anchor_mismatch", "broken", inside(5))], "lost"],
    ["missing → live", [state("missing", "live", inside(5))], "restored"],
    ["broken → rel_mismatch", [state("broken", "rel_mismatch", inside(5))], "restored"],
    [
      "lost and back within the period",
      [state("live", "missing", inside(4)), state("missing", "live", inside(6))],
      "neither",
    ],
    ["back and lost again", [state("missing", "live", inside(4)), state("live", "missing", inside(6))], "neither"],
    [
      "lost in two steps (live → broken → missing)",
      [state("live", "broken", inside(4)), state("broken", "missing", inside(6))],
      "lost",
    ],
    ["missing → broken: still gone", [state("missing", "broken", inside(5))], "neither"],
    ["never found: pending → missing", [state("pending", "missing", inside(5))], "neither"],
    ["first seen: pending → live", [state("pending", "live", inside(5))], "neither"],
    ["live → rel_mismatch: still on the page", [state("live", "rel_mismatch", inside(5))], "neither"],
    ["lost before the period", [state("live", "missing", inside(2))], "neither"],
    ["lost after the period's end", [state("live", "missing", inside(10, 10))], "neither"],
    ["lost at the period's first instant", [state("live", "missing", period.start)], "lost"],
    ["lost at its end instant (the next report's)", [state("live", "missing", period.end)], "neither"],
    ["no change", [], "neither"],
  ])("%s: %s", (_name, changes, expected) => {
    const result = periodChanges(period, [place], changes, []);
    expect(result.lost.length + result.restored.length).toBe(expected === "neither" ? 0 : 1);
    if (expected !== "neither") expect(result[expected][0]?.to).toBe(changes.at(-1)?.toState);
  });

  it("says when the link took its end state", () => {
    const [lost] = periodChanges(
      period,
      [place],
      [state("live", "broken", inside(4)), state("broken", "missing", inside(6))],
      [],
    ).lost;
    expect(lost).toEqual({ pageUrl: place.pageUrl, target: place.target, from: "live", to: "missing", at: inside(6) });
  });
});

describe("periodChanges: verdict changes", () => {
  it.each<[string, VerdictChange[], [VerdictValue, VerdictValue] | null]>([
    ["counts → does_not_count", [verdict("counts", "does_not_count", inside(5))], ["counts", "does_not_count"]],
    ["at_risk → counts", [verdict("at_risk", "counts", inside(5))], ["at_risk", "counts"]],
    [
      "two steps",
      [verdict("counts", "at_risk", inside(4)), verdict("at_risk", "does_not_count", inside(6))],
      ["counts", "does_not_count"],
    ],
    ["there and back", [verdict("counts", "at_risk", inside(4)), verdict("at_risk", "counts", inside(6))], null],
    ["a first verdict is no change", [verdict(null, "counts", inside(5))], null],
    ["a reset (new target) is no change", [verdict("counts", null, inside(5))], null],
    ["outside the period", [verdict("counts", "at_risk", inside(1))], null],
  ])("%s", (_name, changes, expected) => {
    const moves = periodChanges(period, [{ ...place, reasons: ["nofollow"] }], [], changes).verdicts;
    expect(moves.map((move) => [move.from, move.to])).toEqual(expected ? [expected] : []);
    if (expected) expect(moves[0]?.reasons).toEqual(["nofollow"]);
  });
});

describe("periodChanges: many links", () => {
  it("each link on its own, ordered by page then target; links out of scope are not named", () => {
    const places: LinkPlace[] = [
      { id: "b", pageUrl: "https://b.example/", target: "https://mine.example/2", reasons: [] },
      { id: "a", pageUrl: "https://a.example/", target: "https://mine.example/1", reasons: [] },
      { id: "c", pageUrl: "https://a.example/", target: "https://mine.example/0", reasons: [] },
    ];
    const changes: StateChange[] = ["a", "b", "c", "out-of-scope"].map((id) => ({
      trackedLinkId: id,
      fromState: "live",
      toState: "missing",
      at: inside(5),
    }));
    expect(periodChanges(period, places, changes, []).lost.map((link) => link.target)).toEqual([
      "https://mine.example/0",
      "https://mine.example/1",
      "https://mine.example/2",
    ]);
  });
});
