import type { LinkState, Monitor } from "./types";

const STATE_STYLE: Record<LinkState, { label: string; tone: string }> = {
  pending: {
    label: "Pending",
    tone: "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600",
  },
  live: {
    label: "Live",
    tone: "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950/50 dark:text-emerald-200 dark:ring-emerald-800",
  },
  missing: {
    label: "Missing",
    tone: "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950/50 dark:text-red-200 dark:ring-red-800",
  },
  broken: {
    label: "Broken",
    tone: "bg-orange-50 text-orange-800 ring-orange-300 dark:bg-orange-950/50 dark:text-orange-200 dark:ring-orange-800",
  },
  rel_mismatch: {
    label: "Rel mismatch",
    tone: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950/50 dark:text-amber-200 dark:ring-amber-800",
  },
  anchor_mismatch: {
    label: "Anchor mismatch",
    tone: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950/50 dark:text-amber-200 dark:ring-amber-800",
  },
};

/** A tracked link's state as a labelled badge (the text says it; the color only repeats it). */
export function StateBadge({ state }: { state: LinkState }) {
  const style = STATE_STYLE[state];
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${style.tone}`}
      data-state={state}
    >
      {style.label}
    </span>
  );
}

export function MonitorStatusBadge({
  monitor,
}: {
  monitor: Pick<Monitor, "status" | "paused" | "consecutivePageErrors">;
}) {
  if (monitor.paused)
    return (
      <span className="inline-flex rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700 ring-1 ring-slate-300 dark:bg-slate-800 dark:text-slate-200">
        Paused
      </span>
    );
  if (monitor.status === "page_error")
    return (
      <span className="inline-flex rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-300 dark:bg-red-950/50 dark:text-red-200">
        Page error ×{monitor.consecutivePageErrors}
      </span>
    );
  if (monitor.status === "ok")
    return (
      <span className="inline-flex rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-300 dark:bg-emerald-950/50 dark:text-emerald-200">
        OK
      </span>
    );
  return (
    <span className="inline-flex rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700 ring-1 ring-slate-300 dark:bg-slate-800 dark:text-slate-200">
      Not checked yet
    </span>
  );
}
