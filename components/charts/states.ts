import { LINK_STATE_LABELS, type LinkState } from "@/lib/schemas/monitors";

/**
 * How the charts draw a tracked link's state: the same hues as the state badges (components/account/
 * monitors/Badges.tsx), as SVG fills. The words always come with the colour (tooltips, legend, text
 * alternative): colour alone never carries a state.
 */
export const STATE_LABEL: Record<LinkState, string> = LINK_STATE_LABELS;

export const STATE_FILL: Record<LinkState, string> = {
  live: "fill-emerald-500 dark:fill-emerald-400",
  missing: "fill-red-600 dark:fill-red-400",
  broken: "fill-orange-500 dark:fill-orange-400",
  rel_mismatch: "fill-amber-400 dark:fill-amber-300",
  anchor_mismatch: "fill-yellow-300 dark:fill-yellow-200",
  pending: "fill-slate-300 dark:fill-slate-600",
};

/** The legend's swatches (HTML), the same colours as backgrounds. */
export const STATE_SWATCH: Record<LinkState, string> = {
  live: "bg-emerald-500 dark:bg-emerald-400",
  missing: "bg-red-600 dark:bg-red-400",
  broken: "bg-orange-500 dark:bg-orange-400",
  rel_mismatch: "bg-amber-400 dark:bg-amber-300",
  anchor_mismatch: "bg-yellow-300 dark:bg-yellow-200",
  pending: "bg-slate-300 dark:bg-slate-600",
};

/** A day the link did not exist yet. */
export const NO_LINK_FILL = "fill-slate-100 dark:fill-slate-800";

/** "2026-03-04" as "Mar 4, 2026" (UTC: the days are UTC days, whatever the reader's zone). */
export function dayLabel(date: string, withYear = true): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    ...(withYear ? { year: "numeric" } : {}),
    timeZone: "UTC",
  });
}
