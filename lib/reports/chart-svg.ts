import { BAR, barsOf, CHART_HEIGHT, niceMax, STACK, totalOf } from "../charts/portfolio-bars";
import { html, type SafeHtml } from "../mail/html";
import { LINK_STATE_LABELS, type LinkState } from "../schemas/monitors";
import type { DailyStatsDay } from "../schemas/stats";
import { dateWords } from "./words";

/**
 * The portfolio chart of a report's period as an SVG string for its PDF: the app's chart (the same bars,
 * lib/charts/portfolio-bars.ts) in the same colours as fixed fills, since the PDF has no stylesheet of
 * ours, with a legend giving each state's count on the last day. Plain SVG inline in the page: nothing is
 * fetched, and pdftotext reads its title and legend.
 */

/** The app's state colours (Tailwind's emerald-500, red-600, orange-500, amber-400, yellow-300, slate-300). */
export const STATE_COLOURS: Record<LinkState, string> = {
  live: "#10b981",
  missing: "#dc2626",
  broken: "#f97316",
  rel_mismatch: "#fbbf24",
  anchor_mismatch: "#fde047",
  pending: "#cbd5e1",
};

const dayDate = (day: string) => dateWords(new Date(`${day}T00:00:00Z`));

export function chartTitle(days: readonly DailyStatsDay[]): string {
  const first = days[0];
  const last = days.at(-1);
  return first && last
    ? `Tracked links by state at the end of each day, ${dayDate(first.date)} to ${dayDate(last.date)}`
    : "Tracked links by state";
}

export function chartSvg(days: readonly DailyStatsDay[]): SafeHtml {
  const top = niceMax(Math.max(0, ...days.map(totalOf)));
  const width = Math.max(days.length * BAR, 1);
  const title = chartTitle(days);
  const last = days.at(-1);
  return html`<figure class="chart">
<figcaption>${title}</figcaption>
<div class="plot"><div class="axis"><span>${top}</span><span>0</span></div>
<svg role="img" aria-label="${title}" viewBox="0 0 ${width} ${CHART_HEIGHT}" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg"><title>${title}</title><line x1="0" x2="${width}" y1="${CHART_HEIGHT / 2}" y2="${CHART_HEIGHT / 2}" stroke="#e2e8f0" stroke-width="1" vector-effect="non-scaling-stroke"/>${STACK.map(
    (state) => html`<path d="${barsOf(days, state, top)}" fill="${STATE_COLOURS[state]}" data-state="${state}"/>`,
  )}</svg></div>
<ul class="legend">${STACK.map(
    (state) =>
      html`<li><span class="swatch" style="background:${STATE_COLOURS[state]}"></span>${LINK_STATE_LABELS[state]} ${last ? last[state] : 0}</li>`,
  )}</ul>
</figure>`;
}
