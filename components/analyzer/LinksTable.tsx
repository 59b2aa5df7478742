"use client";

import { useDeferredValue, useMemo, useState } from "react";
import { LinkFilters } from "./LinkFilters";
import { LinkRow } from "./LinkRow";
import {
  filterLinks,
  NO_FILTERS,
  sortLinks,
  type LinkFilters as Filters,
  type SortKey,
  type SortState,
  type ViewLink,
} from "./link-model";
import { Pagination } from "./Pagination";
import { SortHeader } from "./SortHeader";

export const PAGE_SIZE = 100;

/**
 * Every captured link: sortable, filterable, paginated (100 rows a page keeps 5,000+ links fast
 * without a virtualization library). Filtering reads a deferred copy of the filters, so typing stays smooth.
 */
export function LinksTable({
  links,
  selected,
  onSelect,
}: {
  links: readonly ViewLink[];
  selected: number | null;
  onSelect: (position: number) => void;
}) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<SortState>({ key: "position", direction: "asc" });
  const [page, setPage] = useState(1);
  const deferredFilters = useDeferredValue(filters);
  // A signed-in audit's links carry signals: their filters join the table's.
  const withSignals = useMemo(() => links.some((link) => link.signals !== undefined), [links]);
  // A URL audit whose Google view rendered: every link is in it or not (null otherwise: no filter to offer).
  const withGoogleView = useMemo(
    () => links.some((link) => link.signals?.inGoogleView !== null && link.signals?.inGoogleView !== undefined),
    [links],
  );

  const rows = useMemo(() => sortLinks(filterLinks(links, deferredFilters), sort), [links, deferredFilters, sort]);
  const pageCount = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const currentPage = Math.min(page, pageCount);
  const first = (currentPage - 1) * PAGE_SIZE;
  const visible = rows.slice(first, first + PAGE_SIZE);

  function onSort(key: SortKey) {
    setSort((previous) =>
      previous.key === key
        ? { key, direction: previous.direction === "asc" ? "desc" : "asc" }
        : { key, direction: "asc" },
    );
    setPage(1);
  }

  function onFilters(next: Filters) {
    setFilters(next);
    setPage(1);
  }

  const header = { sort, onSort };
  return (
    <div className="space-y-3">
      <LinkFilters filters={filters} onChange={onFilters} withSignals={withSignals} withGoogleView={withGoogleView} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p
          aria-live="polite"
          className="text-sm tabular-nums text-slate-700 dark:text-slate-300"
          data-testid="table-count"
        >
          {rows.length === 0
            ? "No links match these filters."
            : `Showing ${(first + 1).toLocaleString("en-US")}–${(first + visible.length).toLocaleString("en-US")} of ${rows.length.toLocaleString("en-US")}${
                rows.length === links.length ? " links" : ` matching (${links.length.toLocaleString("en-US")} in all)`
              }`}
        </p>
        <Pagination label="Table pages, top" page={currentPage} pageCount={pageCount} onPage={setPage} />
      </div>
      {/* relative: sr-only (absolute) text in cells must be clipped here, not widen the page. */}
      <div className="relative overflow-x-auto rounded-lg ring-1 ring-slate-200 dark:ring-slate-800">
        <table className="w-full table-fixed border-collapse text-sm sm:min-w-[46rem]">
          <caption className="sr-only">
            Links on the page. Sort with the column buttons; choose a row&apos;s number to show it in the snapshot.
          </caption>
          <colgroup>
            <col className="w-12 sm:w-14" />
            <col className="sm:w-[28%]" />
            <col className="hidden sm:table-column" />
            <col className="hidden w-20 sm:table-column" />
            <col className="hidden w-28 sm:table-column" />
            <col className="hidden w-28 sm:table-column" />
          </colgroup>
          <thead className="bg-slate-50 dark:bg-slate-900">
            <tr>
              <SortHeader label="#" sortKey="position" {...header} />
              <SortHeader label="Anchor text" sortKey="anchorText" {...header} />
              <SortHeader label="URL" sortKey="href" className="hidden sm:table-cell" {...header} />
              <SortHeader label="Type" sortKey="linkType" className="hidden sm:table-cell" {...header} />
              <SortHeader label="Rel" sortKey="rel" className="hidden sm:table-cell" {...header} />
              <SortHeader label="Status" sortKey="httpStatus" className="hidden sm:table-cell" {...header} />
            </tr>
          </thead>
          <tbody>
            {visible.map((link, index) => (
              <LinkRow
                key={link.position ?? `row-${first + index}`}
                link={link}
                selected={link.position !== null && link.position === selected}
                onSelect={onSelect}
              />
            ))}
          </tbody>
        </table>
      </div>
      {pageCount > 1 && (
        <div className="flex justify-end">
          <Pagination label="Table pages, bottom" page={currentPage} pageCount={pageCount} onPage={setPage} />
        </div>
      )}
    </div>
  );
}
