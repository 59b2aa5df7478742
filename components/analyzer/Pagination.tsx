"use client";

const buttonClass =
  "rounded-md border border-slate-300 px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800";

/** Previous / next paging of the links table; the table renders one page at a time. */
export function Pagination({
  page,
  pageCount,
  onPage,
  label,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center gap-2">
      <button
        type="button"
        className={buttonClass}
        disabled={page <= 1}
        onClick={() => onPage(1)}
        aria-label="First page"
      >
        «
      </button>
      <button type="button" className={buttonClass} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="text-sm tabular-nums text-slate-700 dark:text-slate-300">
        Page {page} of {pageCount}
      </span>
      <button type="button" className={buttonClass} disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Next
      </button>
      <button
        type="button"
        className={buttonClass}
        disabled={page >= pageCount}
        onClick={() => onPage(pageCount)}
        aria-label="Last page"
      >
        »
      </button>
    </nav>
  );
}
