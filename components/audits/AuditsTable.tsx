import Link from "next/link";
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

/** Saved audits with their headline numbers; each row opens the audit. */
export function AuditsTable({ items }: { items: AuditSummary[] }) {
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="audits-table">
        <caption className="sr-only">Saved audits, newest first</caption>
        <thead className="text-slate-600 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Page
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Run
            </th>
            {COLUMNS.map(([key, label]) => (
              <th key={key} scope="col" className="py-2 pr-3 text-right font-medium">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} className="border-t border-slate-100 align-top dark:border-slate-800" data-testid="audit-row">
              <td className="max-w-md py-2 pr-3">
                <Link href={`/app/audits/${item.id}`} className="font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300">
                  {item.title ?? item.url}
                </Link>
                <div className="truncate font-mono text-xs text-slate-500 dark:text-slate-400" title={item.url}>
                  {item.url}
                </div>
              </td>
              <td className="py-2 pr-3 whitespace-nowrap text-slate-700 dark:text-slate-300">
                <time dateTime={item.createdAt}>{utcTime(item.createdAt)}</time>
                <div className="text-xs text-slate-500 dark:text-slate-400">{item.mode === "url" ? "rendered URL" : "pasted HTML"}</div>
              </td>
              {COLUMNS.map(([key]) => (
                <td key={key} className={`py-2 pr-3 text-right tabular-nums ${key === "broken" && item.stats.broken > 0 ? "font-semibold text-red-700 dark:text-red-300" : ""}`}>
                  {item.stats[key].toLocaleString("en-US")}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
