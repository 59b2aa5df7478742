import type { ScheduleCadence } from "../schemas/share-schedules";

/**
 * When scheduled reports go out (pure; reports-and-channels.md "Scheduled reports"). Times are UTC, which
 * has no daylight saving: "Mondays at 09:00" is 09:00Z every week of the year. Monthly reports go out on
 * a day from 1 to 28, which every month has.
 */

export interface ScheduleTimes {
  cadence: ScheduleCadence;
  /** 0 (Sunday) to 6; weekly only. */
  weekday: number | null;
  /** 1 to 28; monthly only. */
  dayOfMonth: number | null;
  hourUtc: number;
}

const DAY_MS = 86_400_000;

/** The first time of the schedule strictly after `after`. */
export function nextSendAt(schedule: ScheduleTimes, after: Date): Date {
  const year = after.getUTCFullYear();
  const month = after.getUTCMonth();
  if (schedule.cadence === "weekly") {
    const weekday = schedule.weekday ?? 1;
    const ahead = (weekday - after.getUTCDay() + 7) % 7;
    const candidate = new Date(Date.UTC(year, month, after.getUTCDate() + ahead, schedule.hourUtc));
    return candidate > after ? candidate : new Date(candidate.getTime() + 7 * DAY_MS);
  }
  const day = schedule.dayOfMonth ?? 1;
  const candidate = new Date(Date.UTC(year, month, day, schedule.hourUtc));
  // Date.UTC carries month 12 into January of the next year.
  return candidate > after ? candidate : new Date(Date.UTC(year, month + 1, day, schedule.hourUtc));
}

/**
 * `end` moved back by one period: 7 days, or one calendar month (to the same day and time, or the last
 * day of a shorter month: a test sent on 31 March covers the time since 28 or 29 February).
 */
export function oneCadenceBefore(cadence: ScheduleCadence, end: Date): Date {
  if (cadence === "weekly") return new Date(end.getTime() - 7 * DAY_MS);
  const year = end.getUTCFullYear();
  const month = end.getUTCMonth() - 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(end.getUTCDate(), lastDay),
      end.getUTCHours(),
      end.getUTCMinutes(),
      end.getUTCSeconds(),
      end.getUTCMilliseconds(),
    ),
  );
}

/** The span a report covers: from the last report (or one period back, for the first) to when it is made. */
export interface ReportPeriod {
  start: Date;
  end: Date;
}

export function reportPeriod(cadence: ScheduleCadence, lastSentAt: Date | null, now: Date): ReportPeriod {
  const start = lastSentAt && lastSentAt < now ? lastSentAt : oneCadenceBefore(cadence, now);
  return { start, end: now };
}

export interface DueSend {
  period: ReportPeriod;
  /** The schedule's next time once this report is made: the first one after `now`. */
  next: Date;
}

/**
 * Whether a report is due at `now` and, if so, what it covers and when the next one is. However many of
 * the schedule's times passed while nothing ran (a deploy, an outage), one report goes out, covering the
 * whole time since the last, and the next is the schedule's first time after now.
 */
export function dueSend(
  schedule: ScheduleTimes & { nextSendAt: Date; lastSentAt: Date | null },
  now: Date,
): DueSend | null {
  if (schedule.nextSendAt > now) return null;
  return { period: reportPeriod(schedule.cadence, schedule.lastSentAt, now), next: nextSendAt(schedule, now) };
}
