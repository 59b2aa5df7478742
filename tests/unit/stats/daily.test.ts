import { describe, expect, it } from "vitest";
import { dailyCounts, type Change } from "@/lib/stats/daily";
import { emptyTally, type Kind, type Tally } from "@/lib/stats/kinds";

const DAYS = ["2026-05-01", "2026-05-02", "2026-05-03", "2026-05-04"];
const tally = (counts: Partial<Tally>): Tally => ({ ...emptyTally(), ...counts });
const change = (day: string, kind: Kind, delta: number): Change => ({ day, kind, delta });
/** The days' counts of the kinds named, as [day, {kind: n}] for readable expectations. */
const pick = (days: ReturnType<typeof dailyCounts>, kinds: Kind[]) =>
  days.map((day) => [day.date, Object.fromEntries(kinds.map((kind) => [kind, day[kind as keyof typeof day]]))]);

describe("dailyCounts: the counts now, minus the changes after each day", () => {
  it.each<[string, Partial<Tally>, Change[], Kind[], Array<Record<string, number>>]>([
    [
      "no change: every day has today's counts",
      { live: 3 },
      [],
      ["live"],
      [{ live: 3 }, { live: 3 }, { live: 3 }, { live: 3 }],
    ],
    [
      "a link created mid-window is not counted before its day",
      { pending: 1, live: 2 },
      [change("2026-05-03", "pending", 1)],
      ["live", "pending"],
      [
        { live: 2, pending: 0 },
        { live: 2, pending: 0 },
        { live: 2, pending: 1 },
        { live: 2, pending: 1 },
      ],
    ],
    [
      "created and checked the same day: counted in its state at that day's end",
      { live: 1 },
      [change("2026-05-02", "pending", 1), change("2026-05-02", "pending", -1), change("2026-05-02", "live", 1)],
      ["live", "pending"],
      [
        { live: 0, pending: 0 },
        { live: 1, pending: 0 },
        { live: 1, pending: 0 },
        { live: 1, pending: 0 },
      ],
    ],
    [
      "a loss, then a restore: the days in between are missing",
      { live: 1 },
      [
        change("2026-05-02", "live", -1),
        change("2026-05-02", "missing", 1),
        change("2026-05-04", "missing", -1),
        change("2026-05-04", "live", 1),
      ],
      ["live", "missing"],
      [
        { live: 1, missing: 0 },
        { live: 0, missing: 1 },
        { live: 0, missing: 1 },
        { live: 1, missing: 0 },
      ],
    ],
    [
      "a deleted link (its last state −1 on the day it went) is counted only until then",
      { live: 0 },
      [change("2026-05-03", "live", -1)],
      ["live"],
      [{ live: 1 }, { live: 1 }, { live: 0 }, { live: 0 }],
    ],
    [
      "changes after today (a clock moved back) are undone from today too",
      { live: 1, missing: 0 },
      [change("2026-05-05", "live", 1)],
      ["live"],
      [{ live: 0 }, { live: 0 }, { live: 0 }, { live: 0 }],
    ],
    [
      "changes on the first day are already in its counts",
      { broken: 1 },
      [change("2026-05-01", "broken", 1)],
      ["broken"],
      [{ broken: 1 }, { broken: 1 }, { broken: 1 }, { broken: 1 }],
    ],
    [
      "verdict kinds are tallied like states",
      { counts: 2, at_risk: 1 },
      [change("2026-05-04", "at_risk", 1), change("2026-05-04", "counts", -1)],
      ["counts", "at_risk"],
      [
        { counts: 3, at_risk: 0 },
        { counts: 3, at_risk: 0 },
        { counts: 3, at_risk: 0 },
        { counts: 2, at_risk: 1 },
      ],
    ],
    [
      "a first verdict is only a +1: the link is in no verdict before it (its state is counted all along)",
      { live: 1, counts: 1 },
      [
        change("2026-05-02", "pending", 1),
        change("2026-05-03", "pending", -1),
        change("2026-05-03", "live", 1),
        change("2026-05-03", "counts", 1),
      ],
      ["pending", "live", "counts"],
      [
        { pending: 0, live: 0, counts: 0 },
        { pending: 1, live: 0, counts: 0 },
        { pending: 0, live: 1, counts: 1 },
        { pending: 0, live: 1, counts: 1 },
      ],
    ],
    [
      "a change of verdict, the state unchanged: −1 the old value, +1 the new one",
      { live: 2, counts: 1, does_not_count: 1 },
      [change("2026-05-03", "counts", -1), change("2026-05-03", "does_not_count", 1)],
      ["live", "counts", "does_not_count"],
      [
        { live: 2, counts: 2, does_not_count: 0 },
        { live: 2, counts: 2, does_not_count: 0 },
        { live: 2, counts: 1, does_not_count: 1 },
        { live: 2, counts: 1, does_not_count: 1 },
      ],
    ],
    [
      "a confirmed loss of a link never seen: pending → missing and a first does_not_count the same day",
      { missing: 1, does_not_count: 1 },
      [
        change("2026-05-02", "pending", -1),
        change("2026-05-02", "missing", 1),
        change("2026-05-02", "does_not_count", 1),
      ],
      ["pending", "missing", "does_not_count"],
      [
        { pending: 1, missing: 0, does_not_count: 0 },
        { pending: 0, missing: 1, does_not_count: 1 },
        { pending: 0, missing: 1, does_not_count: 1 },
        { pending: 0, missing: 1, does_not_count: 1 },
      ],
    ],
    [
      "a new target resets the verdict: only a −1, the link back in pending and in no verdict",
      { pending: 1 },
      [change("2026-05-03", "at_risk", -1), change("2026-05-03", "live", -1), change("2026-05-03", "pending", 1)],
      ["pending", "live", "at_risk"],
      [
        { pending: 0, live: 1, at_risk: 1 },
        { pending: 0, live: 1, at_risk: 1 },
        { pending: 1, live: 0, at_risk: 0 },
        { pending: 1, live: 0, at_risk: 0 },
      ],
    ],
    [
      "a deleted link's last state and verdict are −1 on the day it went",
      {},
      [change("2026-05-03", "live", -1), change("2026-05-03", "at_risk", -1)],
      ["live", "at_risk"],
      [
        { live: 1, at_risk: 1 },
        { live: 1, at_risk: 1 },
        { live: 0, at_risk: 0 },
        { live: 0, at_risk: 0 },
      ],
    ],
    [
      "a count never drops below zero",
      { live: 0 },
      [change("2026-05-04", "live", 5)],
      ["live"],
      [{ live: 0 }, { live: 0 }, { live: 0 }, { live: 0 }],
    ],
  ])("%s", (_name, now, changes, kinds, expected) => {
    const days = dailyCounts(DAYS, tally(now), changes);
    expect(pick(days, kinds)).toEqual(DAYS.map((day, index) => [day, expected[index]]));
  });

  it("answers every field of a day, oldest first", () => {
    const [first] = dailyCounts(DAYS, tally({ live: 1 }), []);
    expect(Object.keys(first ?? {})).toEqual([
      "date",
      "live",
      "missing",
      "broken",
      "rel_mismatch",
      "anchor_mismatch",
      "pending",
      "counts",
      "at_risk",
      "does_not_count",
    ]);
    expect(first?.date).toBe("2026-05-01");
  });
});
