import type { LinkState } from "../schemas/monitors";
import type { DailyStatsDay } from "../schemas/stats";

/**
 * The portfolio chart's geometry (states stacked per day), pure and browser-safe: the app draws it as a
 * React SVG (components/charts/PortfolioChart.tsx), a scheduled report's PDF as an SVG string
 * (lib/reports/chart-svg.ts). One bar a day, BAR wide, in a box CHART_HEIGHT high.
 */

/** Bottom to top: the good news first, then what needs a look, then what was not checked yet. */
export const STACK: readonly LinkState[] = ["live", "rel_mismatch", "anchor_mismatch", "broken", "missing", "pending"];

export const CHART_HEIGHT = 160;
export const BAR = 10;

export function totalOf(day: DailyStatsDay): number {
  return STACK.reduce((sum, state) => sum + day[state], 0);
}

/** A round top for the axis: 1, 2, 5 times a power of ten, at least the largest day. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((step) => step >= value) ?? value;
}

/** The bars of one state, every day, stacked on the states below it: one SVG path. */
export function barsOf(days: readonly DailyStatsDay[], state: LinkState, top: number): string {
  const below = STACK.slice(0, STACK.indexOf(state));
  const parts: string[] = [];
  days.forEach((day, index) => {
    if (day[state] <= 0) return;
    const base = below.reduce((sum, other) => sum + day[other], 0);
    const y = CHART_HEIGHT - ((base + day[state]) / top) * CHART_HEIGHT;
    const height = (day[state] / top) * CHART_HEIGHT;
    parts.push(`M${index * BAR + 1} ${round(y)}h${BAR - 2}v${round(height)}h-${BAR - 2}z`);
  });
  return parts.join("");
}

const round = (value: number) => Math.round(value * 100) / 100;
