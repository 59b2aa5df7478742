import { useId } from "react";
import { BAR, barsOf, CHART_HEIGHT as HEIGHT, niceMax, STACK, totalOf } from "@/lib/charts/portfolio-bars";
import type { DailyStatsDay } from "@/lib/schemas/stats";
import { dayLabel, STATE_FILL, STATE_LABEL, STATE_SWATCH } from "./states";

/** One day in words: its date and each non-zero state. */
export function describeDay(day: DailyStatsDay): string {
  const parts = STACK.filter((state) => day[state] > 0).map(
    (state) => `${day[state]} ${STATE_LABEL[state].toLowerCase()}`,
  );
  return `${dayLabel(day.date)}: ${parts.length > 0 ? parts.join(", ") : "no tracked links"}`;
}

/**
 * The portfolio per day, states stacked (evidence-and-reports.md "History and charts"): one bar a day,
 * oldest on the left, hover a day for its counts (SVG <title>). Plain SVG, drawn on the server; for
 * assistive technology an image named by its title and described by the first and last day, with the
 * whole series as a table under "Show the numbers" for everyone.
 */
export function PortfolioChart({ days }: { days: readonly DailyStatsDay[] }) {
  const id = useId();
  const top = niceMax(Math.max(0, ...days.map(totalOf)));
  const width = days.length * BAR;
  const first = days[0];
  const last = days.at(-1);
  const middle = days[Math.floor(days.length / 2)];
  const summary = first && last ? `From ${describeDay(first)}. To ${describeDay(last)}.` : "No days.";
  return (
    <figure className="space-y-2" data-testid="portfolio-chart">
      <div className="flex gap-2">
        <div
          aria-hidden="true"
          className="flex h-40 flex-col justify-between text-right text-xs text-slate-600 tabular-nums dark:text-slate-400"
        >
          <span>{top}</span>
          {/* Counts are whole: the middle line of a top of 5 has no label. */}
          <span>{Number.isInteger(top / 2) ? top / 2 : ""}</span>
          <span>0</span>
        </div>
        <svg
          role="img"
          aria-labelledby={`${id}-t`}
          aria-describedby={`${id}-d`}
          viewBox={`0 0 ${Math.max(width, 1)} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 min-w-0 flex-1 border-b border-l border-slate-300 dark:border-slate-700"
        >
          <title id={`${id}-t`}>{`Tracked links by state at the end of each day, last ${days.length} days`}</title>
          <desc id={`${id}-d`}>{summary}</desc>
          {[0.5].map((share) => (
            <line
              key={share}
              x1={0}
              x2={width}
              y1={HEIGHT * share}
              y2={HEIGHT * share}
              className="stroke-slate-200 dark:stroke-slate-700"
              strokeWidth={1}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {/* One shape per state (its bars of every day), then one transparent column per day for the hover. */}
          {STACK.map((state) => (
            <path key={state} d={barsOf(days, state, top)} className={STATE_FILL[state]} data-state={state} />
          ))}
          {days.map((day, index) => (
            <rect key={day.date} x={index * BAR} width={BAR} height={HEIGHT} fill="transparent" data-date={day.date}>
              <title>{describeDay(day)}</title>
            </rect>
          ))}
        </svg>
      </div>
      <div aria-hidden="true" className="flex justify-between pl-8 text-xs text-slate-600 dark:text-slate-400">
        <span>{first ? dayLabel(first.date) : ""}</span>
        <span className="hidden sm:inline">{middle ? dayLabel(middle.date) : ""}</span>
        <span>{last ? "Today" : ""}</span>
      </div>
      <figcaption>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300" aria-label="Legend">
          {STACK.map((state) => (
            <li key={state} className="flex items-center gap-1.5">
              <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${STATE_SWATCH[state]}`} />
              {STATE_LABEL[state]}
              {last ? <span className="text-slate-600 tabular-nums dark:text-slate-400">{last[state]}</span> : null}
            </li>
          ))}
        </ul>
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-blue-700 dark:text-blue-300">Show the numbers</summary>
        <div className="mt-2 max-h-72 overflow-auto">
          <table className="w-full text-left text-xs tabular-nums">
            <caption className="sr-only">Tracked links by state at the end of each day</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Day
                </th>
                {STACK.map((state) => (
                  <th key={state} scope="col" className="py-1 pr-2 text-right font-medium">
                    {STATE_LABEL[state]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((day) => (
                <tr key={day.date} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-1 pr-2 font-normal whitespace-nowrap">
                    {day.date}
                  </th>
                  {STACK.map((state) => (
                    <td key={state} className="py-1 pr-2 text-right">
                      {day[state]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
