/**
 * Lists that read as a table on a wide screen and as cards on a phone, from one markup: each row is a
 * CSS grid whose columns (the caller's `lg:grid-cols-[…]`) start at the lg breakpoint, under a header
 * row; below it the cells stack and each shows its own label. A table would have to scroll sideways on
 * a phone or squeeze a URL to one character a line.
 *
 * Screen readers hear every cell's label at every width; the header row is for eyes only. It is a grid
 * of its own, so columns are sized in rem or fr, never `auto` (which would size each row differently).
 */

export const rowClass =
  "grid gap-x-6 gap-y-1.5 lg:gap-x-3 border-t border-slate-100 py-3 text-sm first:border-t-0 lg:items-start lg:py-2 dark:border-slate-800";

/** The column labels above the rows, from lg up; a label may bring its own class (text-right above numbers). */
export function ListHeader({
  columns,
  labels,
}: {
  columns: string;
  labels: Array<string | [label: string, className: string]>;
}) {
  return (
    <div
      aria-hidden="true"
      className={`hidden gap-x-3 border-b border-slate-200 py-2 text-sm font-medium text-slate-600 lg:grid dark:border-slate-800 dark:text-slate-400 ${columns}`}
    >
      {labels.map((label, index) => (
        <span key={index} className={typeof label === "string" ? undefined : label[1]}>
          {typeof label === "string" ? label : label[0]}
        </span>
      ))}
    </div>
  );
}

/** One cell: its label shows on a phone (unless `quiet`: the content says it, as a state badge does). */
export function Cell({
  label,
  quiet = false,
  className = "",
  children,
}: {
  label: string;
  quiet?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={`min-w-0 ${className}`}>
      <span className={quiet ? "sr-only" : "block text-xs font-medium text-slate-600 lg:sr-only dark:text-slate-400"}>
        {label}
      </span>
      {children}
    </div>
  );
}
