import { describe, expect, it } from "vitest";
import { isSettled, type SettleObservation } from "@/lib/analyzer/render/settle";

/** The settle rule of lib/analyzer/render/settle.ts, one row per case. */
const WINDOWS = { quietMs: 500, idleMs: 100, networkIdleMs: 50 };

const cases: Array<[string, SettleObservation, boolean]> = [
  [
    "nothing open, quiet for the idle window, network long idle",
    { inflight: 0, sinceNetworkMs: 1_000, activity: { quietMs: 100, open: 0 } },
    true,
  ],
  ["a request in flight", { inflight: 1, sinceNetworkMs: 1_000, activity: { quietMs: 1_000, open: 0 } }, false],
  ["a request ended just now", { inflight: 0, sinceNetworkMs: 49, activity: { quietMs: 1_000, open: 0 } }, false],
  [
    "a request ended one network window ago",
    { inflight: 0, sinceNetworkMs: 50, activity: { quietMs: 1_000, open: 0 } },
    true,
  ],
  [
    "open work (a timer, a fetch, a frame, a script)",
    { inflight: 0, sinceNetworkMs: 1_000, activity: { quietMs: 5_000, open: 1 } },
    false,
  ],
  [
    "a DOM change (or the end of open work) within the idle window",
    { inflight: 0, sinceNetworkMs: 1_000, activity: { quietMs: 99, open: 0 } },
    false,
  ],
  [
    "no tracker: the fixed quiet period without requests, not yet",
    { inflight: 0, sinceNetworkMs: 499, activity: null },
    false,
  ],
  [
    "no tracker: the fixed quiet period without requests, over",
    { inflight: 0, sinceNetworkMs: 500, activity: null },
    true,
  ],
  ["no tracker and a request in flight", { inflight: 2, sinceNetworkMs: 10_000, activity: null }, false],
];

describe("isSettled", () => {
  it.each(cases)("%s → %s", (_name, seen, expected) => {
    expect(isSettled(seen, WINDOWS)).toBe(expected);
  });
});
