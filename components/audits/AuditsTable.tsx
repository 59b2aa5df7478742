import Link from "next/link";
import { Cell, ListHeader, rowClass } from "@/components/account/ListGrid";
import type { AuditSummary } from "@/lib/schemas/audits";

/** "2026-01-05 14:30 UTC": the same on the server and in every visitor's time zone. */
export function utcTime(iso: string): string {
  return `${iso.replace("T", " ").slice(0, 16)} UTC`;
}

const COLUMNS = [
  ["total", "Links"],
  ["internal", "Internal"],
  ["external", "External"],
  ["nofollow", "Nofollow"],
  ["broken", "Broken"],
] as const;

const GRID = "grid-cols-5 lg:grid-cols-[minmax(0,1fr)_11rem_repeat(5,4.75rem)]";

/** Saved audits with their headline numbers, newest first: rows on a wide screen, cards on a phone. */
export function AuditsTable({ items }: { items: AuditSummary[] }) {
  return (
    <div data-testid="audits-table">
      <ListHeader
        columns={GRID}
        labels={["Page", "Run", ...COLUMNS.map(([, label]) => [label, "text-right"] as [string, string])]}
      />
      <ul aria-label="Saved audits, newest first">
        {items.map((item) => (
          <li key={item.id} className={`${rowClass} ${GRID}`} data-testid="audit-row">
            <Cell label="Page" quiet className="col-span-5 lg:col-span-1">
              <Link
                href={`/app/audits/${item.id}`}
                className="font-medium text-blue-800 underline-offset-2 wrap-anywhere hover:underline dark:text-blue-300"
              >
                {item.title ?? item.url}
              </Link>
              <div className="truncate font-mono text-xs text-slate-600 dark:text-slate-400" title={item.url}>
                {item.url}
              </div>
            </Cell>
            <Cell label="Run" quiet className="col-span-5 text-slate-700 lg:col-span-1 dark:text-slate-300">
              <time dateTime={item.createdAt}>{utcTime(item.createdAt)}</time>
              <span className="text-xs text-slate-600 lg:block dark:text-slate-400">
                <span className="lg:hidden"> · </span>
                {item.mode === "url" ? "rendered URL" : "pasted HTML"}
              </span>
            </Cell>
            {COLUMNS.map(([key, label]) => (
              <Cell
                key={key}
                label={label}
                className={`tabular-nums lg:text-right ${key === "broken" && item.stats.broken > 0 ? "font-semibold text-red-700 dark:text-red-300" : ""}`}
              >
                {item.stats[key].toLocaleString("en-US")}
              </Cell>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}
