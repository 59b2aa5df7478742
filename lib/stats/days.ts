/**
 * UTC calendar days, the unit of every history answer (evidence-and-reports.md "History and charts").
 * A day is "YYYY-MM-DD" and runs from 00:00:00.000Z to the next day's 00:00Z, always 24 hours: there is
 * no daylight saving time in UTC. "At the end of a day" means after every change made during it (a change
 * at exactly midnight belongs to the day that starts then); for today the end is now.
 */

const DAY_MS = 86_400_000;

/** The UTC day of an instant. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The instant a day starts (00:00Z). */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** The instant the next day starts: every change before it happened on this day or earlier. */
export function nextDayStart(day: string): Date {
  return new Date(dayStart(day).getTime() + DAY_MS);
}

/** The end of a day as the answers read it: the next day's start, or `now` for today. */
export function dayEnd(day: string, now: Date): Date {
  const next = nextDayStart(day);
  return next.getTime() < now.getTime() ? next : now;
}

/** `count` days, oldest first, ending with today (the UTC day of `now`). */
export function windowDays(now: Date, count: number): string[] {
  const today = dayStart(utcDay(now)).getTime();
  return Array.from({ length: count }, (_, index) => utcDay(new Date(today - (count - 1 - index) * DAY_MS)));
}
