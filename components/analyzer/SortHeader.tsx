"use client";

import type { SortKey, SortState } from "./link-model";

/** A column header that sorts; aria-sort tells assistive tech which column is sorted and how. */
export function SortHeader({
  label,
  sortKey,
  sort,
  onSort,
  className = "",
}: {
  label: string;
  sortKey: SortKey;
  sort: SortState;
  onSort: (key: SortKey) => void;
  className?: string;
}) {
  const active = sort.key === sortKey;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : "none"}
      className={`px-2 py-2 text-left font-semibold ${className}`}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className="inline-flex items-center gap-1 rounded text-xs font-semibold uppercase tracking-wide text-slate-700 hover:text-slate-950 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-slate-300 dark:hover:text-white"
      >
        {label}
        <span
          aria-hidden="true"
          className={active ? "text-slate-900 dark:text-white" : "text-slate-400 dark:text-slate-500"}
        >
          {active ? (sort.direction === "asc" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
}
