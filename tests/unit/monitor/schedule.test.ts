import { describe, expect, it } from "vitest";
import { maxJitterMs, monitorConcurrency, nextCheckAt, type ScheduleInput } from "@/lib/monitor/schedule";

const now = new Date("2026-11-23T12:00:00.000Z");
const base: ScheduleInput = {
  now,
  intervalMinutes: 1440,
  outcome: "ok",
  consecutivePageErrors: 0,
  awaitingConfirmation: false,
  confirmDelayMinutes: 10,
  random: 0,
};
const minutesAfter = (input: Partial<ScheduleInput>) =>
  (nextCheckAt({ ...base, ...input }).getTime() - now.getTime()) / 60_000;

describe("nextCheckAt", () => {
  it.each([
    ["a loaded page, no jitter: one interval", {}, 1440],
    [
      "a loaded page, the largest jitter of a daily monitor: 10 minutes more (5 % would be 72)",
      { random: 0.999999 },
      1450,
    ],
    ["an hourly monitor's jitter is 5 % of it: 3 minutes", { intervalMinutes: 60, random: 0.999999 }, 63],
    ["a weekly monitor's jitter is capped at 10 minutes", { intervalMinutes: 10080, random: 0.5 }, 10085],
    ["a loss awaiting confirmation: the confirm delay, not a day", { awaitingConfirmation: true, random: 0.9 }, 10],
    [
      "awaiting confirmation never pushes an hourly check later than its interval",
      { intervalMinutes: 60, awaitingConfirmation: true, confirmDelayMinutes: 15 },
      15,
    ],
    ["first page error: the confirm delay", { outcome: "page_error", consecutivePageErrors: 1 }, 10],
    ["second: doubled", { outcome: "page_error", consecutivePageErrors: 2 }, 20],
    ["fifth: 160 minutes", { outcome: "page_error", consecutivePageErrors: 5 }, 160],
    ["a long outage is retried at most once per interval", { outcome: "page_error", consecutivePageErrors: 12 }, 1440],
    [
      "an hourly monitor in error: capped at the hour",
      { outcome: "page_error", consecutivePageErrors: 4, intervalMinutes: 60 },
      60,
    ],
    ["page errors get no jitter", { outcome: "page_error", consecutivePageErrors: 1, random: 0.9 }, 10],
  ] as const)("%s", (_name, input, minutes) => {
    // Whole minutes (random below 1 leaves a fraction of a millisecond).
    expect(Math.round(minutesAfter(input))).toBe(minutes);
  });

  it("jitter is at most min(5 % of the interval, 10 minutes) and spreads monitors sharing an interval", () => {
    expect(maxJitterMs(60)).toBe(3 * 60_000);
    expect(maxJitterMs(1440)).toBe(10 * 60_000);
    const spread = new Set(Array.from({ length: 50 }, (_, i) => nextCheckAt({ ...base, random: i / 50 }).getTime()));
    expect(spread.size).toBe(50);
    for (const time of spread) expect(time - now.getTime()).toBeLessThan((1440 + 10) * 60_000);
  });
});

describe("monitorConcurrency", () => {
  it.each([
    [undefined, 2, 1],
    [undefined, 1, 1],
    [undefined, 4, 3],
    [undefined, 8, 7],
    [3, 2, 3],
  ])("MONITOR_CONCURRENCY %s with %i render slots → %i checks", (set, slots, expected) => {
    expect(monitorConcurrency({ MONITOR_CONCURRENCY: set, MAX_CONCURRENT_RENDERS: slots })).toBe(expected);
  });
});
