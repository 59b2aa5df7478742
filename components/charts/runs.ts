/**
 * Consecutive days with the same value as runs ("Mar 1 to Mar 9: live"), the text alternative of a
 * strip: a screen reader hears a handful of runs instead of 90 days.
 */
export interface Run<T> {
  from: string;
  to: string;
  value: T;
  days: number;
}

export function runsOf<T>(days: ReadonlyArray<{ date: string; value: T }>): Run<T>[] {
  const runs: Run<T>[] = [];
  for (const day of days) {
    const last = runs.at(-1);
    if (last && last.value === day.value) {
      last.to = day.date;
      last.days += 1;
    } else {
      runs.push({ from: day.date, to: day.date, value: day.value, days: 1 });
    }
  }
  return runs;
}
