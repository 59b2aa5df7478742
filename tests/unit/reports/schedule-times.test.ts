import { describe, expect, it } from "vitest";
import { dueSend, nextSendAt, oneCadenceBefore, type ScheduleTimes } from "@/lib/reports/schedule-times";

/**
 * When scheduled reports go out (reports-and-channels.md "Scheduled reports"): weekly and monthly times,
 * hours, month and year ends, UTC without daylight saving, and one report for a send missed while down.
 */

const weekly = (weekday: number, hourUtc: number): ScheduleTimes => ({
  cadence: "weekly",
  weekday,
  dayOfMonth: null,
  hourUtc,
});
const monthly = (dayOfMonth: number, hourUtc: number): ScheduleTimes => ({
  cadence: "monthly",
  weekday: null,
  dayOfMonth,
  hourUtc,
});

describe("nextSendAt: the first time of the schedule strictly after a moment", () => {
  it.each<[string, ScheduleTimes, string, string]>([
    // 2031-03-03 is a Monday.
    ["weekly, later the same day", weekly(1, 9), "2031-03-03T08:59:59.999Z", "2031-03-03T09:00:00.000Z"],
    [
      "weekly, at the time itself: the week after",
      weekly(1, 9),
      "2031-03-03T09:00:00.000Z",
      "2031-03-10T09:00:00.000Z",
    ],
    ["weekly, a minute after: the week after", weekly(1, 9), "2031-03-03T09:01:00.000Z", "2031-03-10T09:00:00.000Z"],
    ["weekly, later in the week", weekly(5, 17), "2031-03-03T12:00:00.000Z", "2031-03-07T17:00:00.000Z"],
    ["weekly on Sunday (0), from a Saturday", weekly(0, 0), "2031-03-08T23:59:00.000Z", "2031-03-09T00:00:00.000Z"],
    [
      "weekly on Sunday, from that Sunday's midnight",
      weekly(0, 0),
      "2031-03-09T00:00:00.000Z",
      "2031-03-16T00:00:00.000Z",
    ],
    ["weekly, hour 23", weekly(2, 23), "2031-03-04T22:30:00.000Z", "2031-03-04T23:00:00.000Z"],
    ["weekly, across a year end", weekly(4, 6), "2031-12-30T10:00:00.000Z", "2032-01-01T06:00:00.000Z"],
    ["weekly, across a month end", weekly(1, 9), "2031-03-28T00:00:00.000Z", "2031-03-31T09:00:00.000Z"],
    // Europe's clocks move on 2031-03-30 and the US's on 2031-03-09: UTC does not.
    ["weekly across Europe's spring DST change", weekly(1, 9), "2031-03-29T12:00:00.000Z", "2031-03-31T09:00:00.000Z"],
    ["weekly across the US's spring DST change", weekly(1, 9), "2031-03-08T12:00:00.000Z", "2031-03-10T09:00:00.000Z"],
    ["weekly across Europe's autumn DST change", weekly(0, 1), "2031-10-25T12:00:00.000Z", "2031-10-26T01:00:00.000Z"],
    ["monthly, later this month", monthly(15, 6), "2031-03-03T00:00:00.000Z", "2031-03-15T06:00:00.000Z"],
    ["monthly, at the time itself: next month", monthly(15, 6), "2031-03-15T06:00:00.000Z", "2031-04-15T06:00:00.000Z"],
    ["monthly, past this month's day", monthly(1, 0), "2031-03-01T00:00:00.001Z", "2031-04-01T00:00:00.000Z"],
    ["monthly on the 28th from 31 January", monthly(28, 12), "2031-01-31T00:00:00.000Z", "2031-02-28T12:00:00.000Z"],
    [
      "monthly on the 28th, February of a leap year",
      monthly(28, 23),
      "2032-02-28T22:00:00.000Z",
      "2032-02-28T23:00:00.000Z",
    ],
    ["monthly on the 28th, after February's", monthly(28, 23), "2032-02-29T00:00:00.000Z", "2032-03-28T23:00:00.000Z"],
    ["monthly, December to January", monthly(5, 8), "2031-12-05T08:00:00.000Z", "2032-01-05T08:00:00.000Z"],
    ["monthly, from the last hour of a year", monthly(1, 0), "2031-12-31T23:59:59.999Z", "2032-01-01T00:00:00.000Z"],
    ["monthly across a DST change", monthly(28, 2), "2031-03-29T00:00:00.000Z", "2031-04-28T02:00:00.000Z"],
  ])("%s", (_name, schedule, after, expected) => {
    expect(nextSendAt(schedule, new Date(after)).toISOString()).toBe(expected);
  });

  it("every weekly time is the weekday and hour asked for, 52 weeks in a row (no drift, no DST)", () => {
    let at = new Date("2031-01-01T00:00:00.000Z");
    for (let week = 0; week < 52; week += 1) {
      at = nextSendAt(weekly(3, 14), at);
      expect([at.getUTCDay(), at.getUTCHours(), at.getUTCMinutes()]).toEqual([3, 14, 0]);
    }
    expect(at.toISOString()).toBe("2031-12-24T14:00:00.000Z");
  });

  it("every monthly time is the day and hour asked for, 24 months in a row", () => {
    let at = new Date("2031-01-01T00:00:00.000Z");
    const months: string[] = [];
    for (let month = 0; month < 24; month += 1) {
      at = nextSendAt(monthly(28, 5), at);
      expect([at.getUTCDate(), at.getUTCHours()]).toEqual([28, 5]);
      months.push(at.toISOString().slice(0, 7));
    }
    expect(new Set(months).size).toBe(24);
  });
});

describe("oneCadenceBefore: a first report's period", () => {
  it.each<[string, "weekly" | "monthly", string, string]>([
    ["a week back", "weekly", "2031-03-10T09:00:00.000Z", "2031-03-03T09:00:00.000Z"],
    ["a month back", "monthly", "2031-03-15T06:00:00.000Z", "2031-02-15T06:00:00.000Z"],
    ["a month back across a year", "monthly", "2031-01-05T08:00:00.000Z", "2030-12-05T08:00:00.000Z"],
    ["from 31 March: the end of February", "monthly", "2031-03-31T10:00:00.000Z", "2031-02-28T10:00:00.000Z"],
    ["from 31 March of a leap year", "monthly", "2032-03-31T10:00:00.000Z", "2032-02-29T10:00:00.000Z"],
  ])("%s", (_name, cadence, end, expected) => {
    expect(oneCadenceBefore(cadence, new Date(end)).toISOString()).toBe(expected);
  });
});

describe("dueSend: whether a report goes out at a tick, what it covers, when the next is", () => {
  const schedule = { ...weekly(1, 9), nextSendAt: new Date("2031-03-10T09:00:00.000Z"), lastSentAt: null };

  it("nothing before the time", () => {
    expect(dueSend(schedule, new Date("2031-03-10T08:59:59.999Z"))).toBeNull();
  });

  it("at the time: the first report covers the week before; the next is a week later", () => {
    expect(dueSend(schedule, new Date("2031-03-10T09:00:10.000Z"))).toEqual({
      period: { start: new Date("2031-03-03T09:00:10.000Z"), end: new Date("2031-03-10T09:00:10.000Z") },
      next: new Date("2031-03-17T09:00:00.000Z"),
    });
  });

  it("a later report covers the time since the last one", () => {
    const last = new Date("2031-03-03T09:00:02.000Z");
    expect(dueSend({ ...schedule, lastSentAt: last }, new Date("2031-03-10T09:00:05.000Z"))?.period).toEqual({
      start: last,
      end: new Date("2031-03-10T09:00:05.000Z"),
    });
  });

  it("a send missed while down goes out once at the next tick, covering all the time since the last; the next is the first time after now", () => {
    const last = new Date("2031-03-03T09:00:00.000Z");
    // Down from before 10 March 09:00 until 27 March 15:00: three of the schedule's times passed.
    const now = new Date("2031-03-27T15:00:00.000Z");
    const due = dueSend({ ...schedule, lastSentAt: last }, now);
    expect(due).toEqual({ period: { start: last, end: now }, next: new Date("2031-03-31T09:00:00.000Z") });
    // Once it is sent, the schedule's next time is in the future: nothing more is due at this tick.
    expect(dueSend({ ...schedule, nextSendAt: due!.next, lastSentAt: now }, now)).toBeNull();
  });

  it("a monthly report missed for months: one report, then the next month's day", () => {
    const monthlySchedule = {
      ...monthly(1, 6),
      nextSendAt: new Date("2031-01-01T06:00:00.000Z"),
      lastSentAt: new Date("2030-12-01T06:00:00.000Z"),
    };
    const now = new Date("2031-04-20T00:00:00.000Z");
    expect(dueSend(monthlySchedule, now)).toEqual({
      period: { start: new Date("2030-12-01T06:00:00.000Z"), end: now },
      next: new Date("2031-05-01T06:00:00.000Z"),
    });
  });
});
