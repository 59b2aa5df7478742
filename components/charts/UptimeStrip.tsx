import { useId } from "react";
import type { LinkState } from "@/lib/schemas/monitors";
import type { Uptime } from "@/lib/schemas/stats";
import { runsOf, type Run } from "./runs";
import { dayLabel, NO_LINK_FILL, STATE_FILL, STATE_LABEL } from "./states";

/** "97.3 % live", or "not checked yet" before the first check. */
export function livePercentText(percent: number | null): string {
  return percent === null ? "not checked yet" : `${percent.toFixed(1)} % live`;
}

/** One run of days in words: "May 2, 2026 to May 9, 2026: live (8 days)". */
export function describeRun(run: Run<LinkState | null>): string {
  const days = run.from === run.to ? dayLabel(run.from) : `${dayLabel(run.from)} to ${dayLabel(run.to)}`;
  const state = run.value ? STATE_LABEL[run.value].toLowerCase() : "not tracked yet";
  return `${days}: ${state}${run.days > 1 ? ` (${run.days} days)` : ""}`;
}

/** The strip's text alternative: its live share, then its days as runs of one state. */
export function describeUptime(uptime: Uptime): string {
  const runs = runsOf(uptime.days.map((day) => ({ date: day.date, value: day.state })));
  return `${livePercentText(uptime.livePercent)} over ${uptime.days.length} days. ${runs.map(describeRun).join("; ")}.`;
}

/** A day's cell and the gap after it, in SVG units. */
const STEP = 5;
const CELL = 4;
const HEIGHT = 16;

/**
 * One cell per day, coloured by the link's state at the end of that day, oldest on the left. Days of one
 * state in a row are drawn as one shape cut into day cells by a mask, and hovering it names its days and
 * state (its SVG <title>): a page of 100 strips stays small. Server-renderable plain SVG; for assistive
 * technology an image, named by its title and described by the same facts in words.
 */
export function UptimeStrip({ uptime, label }: { uptime: Uptime; label: string }) {
  const id = useId();
  const width = Math.max(uptime.days.length * STEP - (STEP - CELL), 1);
  const runs = runsOf(uptime.days.map((day) => ({ date: day.date, value: day.state as LinkState | null })));
  // Each run starts where the runs before it end.
  const starts = runs.map((_, index) => runs.slice(0, index).reduce((sum, run) => sum + run.days, 0));
  return (
    <span className="flex min-w-0 items-center gap-2">
      <svg
        role="img"
        aria-labelledby={`${id}t`}
        aria-describedby={`${id}d`}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-4 min-w-0 flex-1"
        data-testid="uptime-strip"
      >
        <title id={`${id}t`}>{`${uptime.days.length}-day history of ${label}`}</title>
        <desc id={`${id}d`}>{describeUptime(uptime)}</desc>
        <defs>
          <pattern id={`${id}p`} width={STEP} height={HEIGHT} patternUnits="userSpaceOnUse">
            <rect width={CELL} height={HEIGHT} fill="#fff" />
          </pattern>
          <mask id={`${id}m`}>
            <rect width={width} height={HEIGHT} fill={`url(#${id}p)`} />
          </mask>
        </defs>
        <g mask={`url(#${id}m)`}>
          {runs.map((run, index) => {
            const x = (starts[index] ?? 0) * STEP;
            return (
              <rect
                key={run.from}
                x={x}
                width={run.days * STEP}
                height={HEIGHT}
                className={run.value ? STATE_FILL[run.value] : NO_LINK_FILL}
                data-state={run.value ?? "none"}
                data-days={run.days}
              >
                <title>{describeRun(run)}</title>
              </rect>
            );
          })}
        </g>
      </svg>
      <span
        className="shrink-0 text-xs font-medium whitespace-nowrap text-slate-700 tabular-nums dark:text-slate-300"
        data-testid="live-percent"
      >
        {livePercentText(uptime.livePercent)}
      </span>
    </span>
  );
}
