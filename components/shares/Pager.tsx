/** Previous / next page of a report as plain links (no JavaScript), with where the reader is. */
export function Pager({
  page,
  pages,
  total,
  hrefOf,
  noun,
}: {
  page: number;
  pages: number;
  total: number;
  hrefOf: (page: number) => string;
  noun: string;
}) {
  if (pages <= 1) return null;
  const link =
    "rounded-md px-3 py-1.5 font-medium ring-1 ring-slate-300 hover:bg-slate-100 dark:ring-slate-700 dark:hover:bg-slate-800";
  return (
    <nav aria-label="Report pages" className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        Page {page} of {pages} · {total.toLocaleString("en-US")} {noun}
      </p>
      <span className="flex gap-2">
        {page > 1 && (
          <a href={hrefOf(page - 1)} className={link} rel="prev">
            ← Previous
          </a>
        )}
        {page < pages && (
          <a href={hrefOf(page + 1)} className={link} rel="next">
            Next →
          </a>
        )}
      </span>
    </nav>
  );
}
