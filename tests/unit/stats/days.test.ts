import { describe, expect, it } from "vitest";
import { dayEnd, dayStart, nextDayStart, utcDay, windowDays } from "@/lib/stats/days";

describe("UTC days", () => {
  it.each([
    ["midnight belongs to the day it starts", "2026-03-29T00:00:00.000Z", "2026-03-29"],
    ["the last millisecond belongs to its day", "2026-03-29T23:59:59.999Z", "2026-03-29"],
    ["an offset time is read in UTC", "2026-03-29T01:30:00+02:00", "2026-03-28"],
    ["a leap day", "2028-02-29T12:00:00Z", "2028-02-29"],
  ])("utcDay: %s", (_name, at, day) => {
    expect(utcDay(new Date(at))).toBe(day);
  });

  it.each([
    // Europe's and America's daylight-saving switches change nothing: a UTC day is always 24 hours.
    ["2026-03-29", "2026-03-30T00:00:00.000Z"],
    ["2026-10-25", "2026-10-26T00:00:00.000Z"],
    ["2026-03-08", "2026-03-09T00:00:00.000Z"],
    ["2026-12-31", "2027-01-01T00:00:00.000Z"],
    ["2028-02-28", "2028-02-29T00:00:00.000Z"],
  ])("nextDayStart(%s) is 24 hours later: %s", (day, next) => {
    expect(nextDayStart(day).toISOString()).toBe(next);
    expect(nextDayStart(day).getTime() - dayStart(day).getTime()).toBe(86_400_000);
  });

  it.each([
    ["a past day ends at the next midnight", "2026-05-01", "2026-05-03T10:00:00.000Z", "2026-05-02T00:00:00.000Z"],
    ["today ends now", "2026-05-03", "2026-05-03T10:00:00.000Z", "2026-05-03T10:00:00.000Z"],
  ])("dayEnd: %s", (_name, day, now, end) => {
    expect(dayEnd(day, new Date(now)).toISOString()).toBe(end);
  });

  it.each([
    [1, "2026-03-05T08:00:00Z", ["2026-03-05"]],
    [3, "2026-03-01T00:00:00Z", ["2026-02-27", "2026-02-28", "2026-03-01"]],
    [3, "2028-03-01T23:59:59.999Z", ["2028-02-28", "2028-02-29", "2028-03-01"]],
    [2, "2027-01-01T00:30:00+01:00", ["2026-12-30", "2026-12-31"]],
  ] as const)("windowDays(%i, %s): oldest first, ending today", (count, now, days) => {
    expect(windowDays(new Date(now), count)).toEqual(days);
  });

  it("a year's window has 365 distinct consecutive days across both daylight-saving switches", () => {
    const days = windowDays(new Date("2026-12-31T18:00:00Z"), 365);
    expect(days).toHaveLength(365);
    expect(new Set(days).size).toBe(365);
    expect(days[0]).toBe("2026-01-01");
    for (let index = 1; index < days.length; index += 1)
      expect(dayStart(days[index] as string).getTime() - dayStart(days[index - 1] as string).getTime()).toBe(
        86_400_000,
      );
  });
});
