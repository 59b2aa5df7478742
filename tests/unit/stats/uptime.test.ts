import { describe, expect, it } from "vitest";
import type { LinkState } from "@/lib/schemas/monitors";
import { windowDays } from "@/lib/stats/days";
import {
  dayStates,
  livePercent,
  roundShare,
  stateBefore,
  uptimeOf,
  type LinkHistory,
  type StateChange,
} from "@/lib/stats/uptime";

const at = (iso: string) => new Date(iso);
const change = (time: string, from: LinkState, to: LinkState): StateChange => ({ at: at(time), from, to });
const history = (overrides: Partial<LinkHistory>): LinkHistory => ({
  createdAt: at("2026-04-01T00:00:00Z"),
  firstCheckAt: at("2026-04-01T00:00:00Z"),
  state: "live",
  changes: [],
  ...overrides,
});

const NOW = at("2026-05-04T12:00:00Z");
const DAYS = windowDays(NOW, 4); // 2026-05-01 … 2026-05-04
const WINDOW_START = at("2026-05-01T00:00:00Z");

describe("stateBefore: the state just after every change before an instant", () => {
  const h = history({
    state: "live",
    changes: [change("2026-05-02T10:00:00Z", "live", "missing"), change("2026-05-03T10:00:00Z", "missing", "live")],
  });
  it.each([
    ["before the link existed: null", history({ createdAt: at("2026-05-03T00:00:00Z") }), "2026-05-02T00:00:00Z", null],
    [
      "created exactly at the instant: not yet",
      history({ createdAt: at("2026-05-02T00:00:00Z") }),
      "2026-05-02T00:00:00Z",
      null,
    ],
    ["before the first change in the window: the state it changed from", h, "2026-05-02T00:00:00Z", "live"],
    ["between two changes: the first one's new state", h, "2026-05-03T00:00:00Z", "missing"],
    ["a change exactly at the instant is after it", h, "2026-05-02T10:00:00Z", "live"],
    ["after every change: the last one's new state", h, "2026-05-04T00:00:00Z", "live"],
    ["no change at all: the state now", history({ state: "broken" }), "2026-05-02T00:00:00Z", "broken"],
  ] as const)("%s", (_name, value, end, expected) => {
    expect(stateBefore(value, at(end))).toBe(expected);
  });
});

describe("dayStates", () => {
  it.each<[string, LinkHistory, Array<LinkState | null>]>([
    ["a link with no history keeps its state every day", history({ state: "live" }), ["live", "live", "live", "live"]],
    [
      "days before the link existed are null; its first day counts from its end",
      history({ createdAt: at("2026-05-02T23:00:00Z"), firstCheckAt: null, state: "pending" }),
      [null, "pending", "pending", "pending"],
    ],
    [
      "the state at the end of each day, whatever happened during it",
      history({
        changes: [
          change("2026-05-02T01:00:00Z", "live", "missing"),
          change("2026-05-02T05:00:00Z", "missing", "live"),
          change("2026-05-03T23:59:59.999Z", "live", "broken"),
        ],
        state: "broken",
      }),
      ["live", "live", "broken", "broken"],
    ],
    [
      "a change at midnight belongs to the day that starts then",
      history({ changes: [change("2026-05-03T00:00:00Z", "live", "missing")], state: "missing" }),
      ["live", "live", "missing", "missing"],
    ],
    [
      "today ends now: a change later today (a moved clock) is not yet",
      history({ changes: [change("2026-05-04T18:00:00Z", "live", "missing")], state: "missing" }),
      ["live", "live", "live", "live"],
    ],
    [
      "a change at exactly now counts for today",
      history({ changes: [change("2026-05-04T12:00:00Z", "live", "rel_mismatch")], state: "rel_mismatch" }),
      ["live", "live", "live", "rel_mismatch"],
    ],
  ])("%s", (_name, value, states) => {
    expect(dayStates(value, DAYS, NOW)).toEqual(DAYS.map((date, index) => ({ date, state: states[index] })));
  });
});

describe("livePercent: the live share of the time since the window's start or the first check", () => {
  it.each<[string, LinkHistory, number | null]>([
    ["never checked: null", history({ firstCheckAt: null, state: "pending" }), null],
    ["first check in the future (a moved clock): null", history({ firstCheckAt: at("2026-05-05T00:00:00Z") }), null],
    ["live all along", history({}), 100],
    ["missing all along", history({ state: "missing" }), 0],
    // 3.5 days in the window, missing for 1 of them.
    [
      "missing for a day of 3.5",
      history({
        changes: [change("2026-05-02T00:00:00Z", "live", "missing"), change("2026-05-03T00:00:00Z", "missing", "live")],
      }),
      71.4,
    ],
    // First checked at 2026-05-04T00:00Z (12 h ago), missing since 06:00: 6 h of 12.
    [
      "the time before the first check does not count",
      history({
        createdAt: at("2026-05-03T00:00:00Z"),
        firstCheckAt: at("2026-05-04T00:00:00Z"),
        changes: [change("2026-05-04T00:00:00Z", "pending", "live"), change("2026-05-04T06:00:00Z", "live", "missing")],
        state: "missing",
      }),
      50,
    ],
    [
      "pending after a reset is not live",
      history({ changes: [change("2026-05-04T00:00:00Z", "live", "pending")], state: "pending" }),
      85.7,
    ],
    ["checked exactly now: the state now", history({ firstCheckAt: NOW, createdAt: NOW }), 100],
    [
      "changes after now (a moved clock) do not count",
      history({ changes: [change("2026-05-04T18:00:00Z", "live", "missing")], state: "missing" }),
      100,
    ],
  ])("%s", (_name, value, percent) => {
    expect(livePercent(value, WINDOW_START, NOW)).toBe(percent);
  });
});

describe("roundShare: one decimal, never a perfect or a nil record that was not", () => {
  it.each([
    [1, 1, 100],
    [0, 1, 0],
    [1, 3, 33.3],
    [2, 3, 66.7],
    [9996, 10000, 99.9],
    [4, 10000, 0.1],
    [5, 1000, 0.5],
  ])("%i of %i → %d", (part, whole, percent) => {
    expect(roundShare(part, whole)).toBe(percent);
  });
});

describe("uptimeOf", () => {
  it("answers the live share and one state per day, oldest first", () => {
    const answer = uptimeOf(
      history({
        changes: [change("2026-05-02T00:00:00Z", "live", "missing"), change("2026-05-03T00:00:00Z", "missing", "live")],
      }),
      DAYS,
      NOW,
    );
    expect(answer).toEqual({
      livePercent: 71.4,
      days: DAYS.map((date, index) => ({ date, state: index === 1 ? "missing" : "live" })),
    });
  });
});
