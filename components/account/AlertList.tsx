import Link from "next/link";
import type { AlertFeedItem } from "@/lib/schemas/alerts";

export type AlertListItem = AlertFeedItem;

const TONE: Record<string, string> = {
  link_missing: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  link_broken: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  page_unreachable: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  page_noindex: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  rel_changed: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  anchor_changed: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  link_expiring: "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-200",
};
const GOOD = "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200";

/** Alerts as a list: what changed, before → after, when, and a link to the monitor. */
export function AlertList({ items, compact = false }: { items: AlertListItem[]; compact?: boolean }) {
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {items.map((item) => (
        <li key={item.id} className="py-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="min-w-0 break-words font-medium">
              <span
                className={`mr-2 inline-block rounded px-1.5 py-0.5 text-xs font-semibold ${TONE[item.type] ?? GOOD}`}
              >
                {item.type.replace(/_/g, " ")}
              </span>
              {item.headline}
            </p>
            <time dateTime={item.createdAt} className="text-xs text-slate-500 dark:text-slate-400">
              {new Date(item.createdAt).toISOString().replace("T", " ").slice(0, 16)} UTC
            </time>
          </div>
          {!compact && (
            <>
              <p className="mt-1 break-words text-sm text-slate-600 dark:text-slate-400">{item.summary}</p>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
                {item.changes.map((change) => (
                  <div key={change.label} className="contents">
                    <dt className="text-slate-500 dark:text-slate-400">{change.label}</dt>
                    <dd className="break-words">
                      {change.before && (
                        <span className="text-slate-500 line-through dark:text-slate-400">{change.before}</span>
                      )}{" "}
                      → {change.after}
                    </dd>
                  </div>
                ))}
              </dl>
            </>
          )}
          <Link
            href={`/app/monitors/${encodeURIComponent(item.monitorId)}`}
            className="mt-1 inline-block text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
          >
            Open the monitor →
          </Link>
        </li>
      ))}
    </ul>
  );
}
