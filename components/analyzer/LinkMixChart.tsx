import type { Link, Stats } from "@/lib/api/schemas";
import { countBy, statusClassOf, STATUS_CLASS_LABELS, type StatusClass } from "./link-model";

interface Segment {
  label: string;
  count: number;
  color: string;
}

function percent(count: number, total: number): string {
  if (total === 0) return "0%";
  const value = (count / total) * 100;
  return value > 0 && value < 1 ? "<1%" : `${Math.round(value)}%`;
}

/**
 * One group of the chart: a bar per category (width = share of the group's base) with its number
 * beside it. The numbers are the text equivalent, so the bars themselves are hidden from assistive tech.
 */
function BarGroup({
  title,
  note,
  base,
  segments,
}: {
  title: string;
  note?: string;
  base: number;
  segments: Segment[];
}) {
  const headingId = `mix-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <figure aria-labelledby={headingId} className="min-w-0">
      <figcaption
        id={headingId}
        className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400"
      >
        {title}
        {note && <span className="ml-1 font-normal normal-case tracking-normal">{note}</span>}
      </figcaption>
      <ul className="space-y-1.5">
        {segments.map((segment) => (
          <li key={segment.label} className="grid grid-cols-[6.5rem_1fr_4.5rem] items-center gap-2 text-sm">
            <span className="truncate text-slate-700 dark:text-slate-300">{segment.label}</span>
            <span aria-hidden="true" className="h-3 overflow-hidden rounded-sm bg-slate-100 dark:bg-slate-800">
              <span
                className={`block h-full rounded-sm ${segment.color}`}
                style={{ width: base === 0 ? 0 : `${(segment.count / base) * 100}%` }}
              />
            </span>
            <span className="text-right tabular-nums">
              <span className="font-semibold">{segment.count.toLocaleString("en-US")}</span>{" "}
              <span className="text-xs text-slate-600 dark:text-slate-400">{percent(segment.count, base)}</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

const STATUS_COLORS: Record<StatusClass, string> = {
  "2xx": "bg-emerald-500",
  "3xx": "bg-blue-500",
  "4xx": "bg-red-500",
  "5xx": "bg-red-700",
  none: "bg-rose-400",
  unchecked: "bg-slate-400",
  other: "bg-amber-500",
};

/** Link mix at a glance: type, rel policy and HTTP status classes. */
export function LinkMixChart({ stats, links }: { stats: Stats; links: readonly Link[] }) {
  const crawlable = stats.internal + stats.external;
  const statusCounts = countBy(links, (link) => statusClassOf(link.httpStatus));
  const statusClasses: StatusClass[] = ["2xx", "3xx", "4xx", "5xx", "none", "unchecked"];
  if (statusCounts.get("other")) statusClasses.push("other");
  const allUnchecked = links.length > 0 && statusCounts.get("unchecked") === links.length;

  // Columns by the panel's own width, not the window's: a group needs about 12rem, or its numbers overlap the next one.
  return (
    <div className="@container">
      <div className="grid gap-6 @min-[26rem]:grid-cols-2 @min-[39rem]:grid-cols-3">
        <BarGroup
          title="Link type"
          base={stats.total}
          segments={[
            { label: "Internal", count: stats.internal, color: "bg-slate-500" },
            { label: "External", count: stats.external, color: "bg-indigo-500" },
            { label: "Ignored", count: stats.ignored, color: "bg-slate-300 dark:bg-slate-600" },
          ]}
        />
        <BarGroup
          title="Rel"
          note="(of internal + external; one link can carry several)"
          base={crawlable}
          segments={[
            { label: "Follow", count: stats.follow, color: "bg-emerald-500" },
            { label: "Nofollow", count: stats.nofollow, color: "bg-amber-500" },
            { label: "Sponsored", count: stats.sponsored, color: "bg-violet-500" },
            { label: "UGC", count: stats.ugc, color: "bg-sky-500" },
          ]}
        />
        <div>
          <BarGroup
            title="HTTP status"
            base={stats.total}
            segments={statusClasses.map((statusClass) => ({
              label: STATUS_CLASS_LABELS[statusClass],
              count: statusCounts.get(statusClass) ?? 0,
              color: STATUS_COLORS[statusClass],
            }))}
          />
          {allUnchecked && (
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              Paste mode fetches nothing, so no status is checked. Use URL mode for broken links.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
