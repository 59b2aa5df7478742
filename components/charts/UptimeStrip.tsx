import { useId } from "react";
import type { LinkState } from "@/lib/schemas/monitors";
import type { Uptime } from "@/lib/schemas/stats";
import { runsOf } from "./runs";
import { dayLabel, NO_LINK_FILL, STATE_FILL, STATE_LABEL } from "./states";

/** "live 97.3 %", or a dash before the first check. */
export function livePercentText(percent: number | null): string {
  return percent === null ? "not checked yet" : `${percent.toFixed(1)} % live`;
}

/** The strip's text alternative: its live share, then its days as runs of one state. */
export function describeUptime(uptime: Uptime): string {
  const runs = runsOf(uptime.days.map((day) => ({ date: day.date, value: day.state })));
  const parts = runs.map((run) => `${run.from === run.to ? dayLabel(run.from) : `${dayLabel(run.from)} to ${dayLabel(run.to)}`}: ${run.value ? STATE_LABEL[run.value].toLowerCase() : "not tracked yet"}`);
  return `${livePercentText(uptime.livePercent)} over ${uptime.days.length} days. ${parts.join("; ")}.`;
}

const CELL = 4;
const GAP = 1;
const HEIGHT = 16;

/**
 * One cell per day, coloured by the link's state at the end of that day, oldest on the left; hovering a
 * cell names its day and state (its SVG <title>). Server-renderable plain SVG; the picture is an image
 * for assistive technology, named by its title and described by the same facts in words.
 */
export function UptimeStrip({ uptime, label }: { uptime: Uptime; label: string }) {
  const id = useId();
  const width = uptime.days.length * (CELL + GAP) - GAP;
  return (
    <span className="flex min-w-0 items-center gap-2">
      <svg
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        viewBox={`0 0 ${Math.max(width, 1)} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-4 min-w-0 flex-1"
        data-testid="uptime-strip"
      >
        <title id={`${id}-t`}>{`${uptime.days.length}-day history of ${label}`}</title>
        <desc id={`${id}-d`}>{describeUptime(uptime)}</desc>
        {uptime.days.map((day, index) => (
          <rect key={day.date} x={index * (CELL + GAP)} y={0} width={CELL} height={HEIGHT} rx={1} className={day.state ? STATE_FILL[day.state as LinkState] : NO_LINK_FILL} data-state={day.state ?? "none"}>
            <title>{`${dayLabel(day.date)}: ${day.state ? STATE_LABEL[day.state as LinkState] : "not tracked yet"}`}</title>
          </rect>
        ))}
      </svg>
      <span className="shrink-0 text-xs font-medium whitespace-nowrap text-slate-700 tabular-nums dark:text-slate-300" data-testid="live-percent">
        {livePercentText(uptime.livePercent)}
      </span>
    </span>
  );
}
