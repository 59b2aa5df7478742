"use client";

import { useEffect, useMemo, useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { pageOf, type Page } from "@/lib/schemas/common";
import { MonitorSchema, TrackedLinkSchema } from "@/lib/schemas/monitors";
import type { UptimeBatch } from "@/lib/schemas/stats";
import { linkFilterQuery, linksPath, PAGE_NAMES_PATH, type Answer, type LinkFilterValues } from "../answers";
import { inputClass, Notice } from "../ui";
import { useApi, useApiPages } from "../use-api";
import { useHydrated } from "../useHydrated";
import { LinkList } from "./LinkList";
import { VERDICT_LABELS, VERDICT_VALUES } from "@/lib/schemas/verdict";
import { STATES, type Monitor, type TrackedLink } from "./types";

type Filters = LinkFilterValues;

const TrackedLinkListSchema = pageOf(TrackedLinkSchema);
const MonitorListSchema = pageOf(MonitorSchema);

/** What the page's server component read for the first paint (app/(app)/app/(main)/links/page.tsx). */
export interface LinksPageData {
  /** The first page of links for the filters of the page's URL (none when they are not valid). */
  links?: Answer<Page<TrackedLink>>;
  /** The monitored pages, for the page names and the Page filter. */
  pages: Answer<Page<Monitor>>;
  uptime: Answer<UptimeBatch>[];
}

/**
 * /app/links: every tracked link of the team, filtered by state, verdict, tag, page and text; exports for
 * members. The server hands over the list for the filters in the page's URL; a change of filters reads
 * the list again, 250 ms after the last keystroke.
 */
export function LinksPanel({
  canExport,
  filters: given,
  initial,
}: {
  canExport: boolean;
  filters: Partial<Filters>;
  initial: LinksPageData;
}) {
  const hydrated = useHydrated();
  const [filters, setFilters] = useState<Filters>({ state: "", verdict: "", tag: "", monitorId: "", q: "", ...given });
  // The filters the list shows: the ones typed, once typing pauses.
  const [asked, setAsked] = useState(filters);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(filters), 250);
    return () => clearTimeout(timer);
  }, [filters]);
  const list = useApiPages(linksPath(asked), TrackedLinkListSchema, { initial: initial.links });
  const names = useApi(PAGE_NAMES_PATH, MonitorListSchema, { initial: initial.pages });
  const pages = useMemo(() => new Map(names.data?.items.map((item) => [item.id, item.url])), [names.data]);
  const links = list.items;
  const { error, nextCursor } = list;

  const set = (key: keyof Filters) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setFilters({ ...filters, [key]: event.target.value });
  const exportQuery = linkFilterQuery(filters);

  return (
    <div className="space-y-4">
      <div
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5"
        role="search"
        aria-label="Filter tracked links"
      >
        <label className="min-w-0 text-sm font-medium">
          State
          <select value={filters.state} onChange={set("state")} className={inputClass}>
            <option value="">all</option>
            {STATES.map((state) => (
              <option key={state} value={state}>
                {state.replace("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <label className="min-w-0 text-sm font-medium">
          Verdict
          <select value={filters.verdict} onChange={set("verdict")} className={inputClass}>
            <option value="">all</option>
            {VERDICT_VALUES.map((value) => (
              <option key={value} value={value}>
                {VERDICT_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <label className="min-w-0 text-sm font-medium">
          Tag
          <input value={filters.tag} onChange={set("tag")} className={inputClass} placeholder="guest posts" />
        </label>
        <label className="min-w-0 text-sm font-medium">
          Page
          <select value={filters.monitorId} onChange={set("monitorId")} className={inputClass}>
            <option value="">all pages</option>
            {[...pages].map(([id, url]) => (
              <option key={id} value={id}>
                {url}
              </option>
            ))}
          </select>
        </label>
        <label className="min-w-0 text-sm font-medium">
          Text
          <input
            value={filters.q}
            onChange={set("q")}
            className={inputClass}
            placeholder="target, page, anchor, notes"
            type="search"
          />
        </label>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <Panel
        id="tracked-links"
        title={`Tracked links (${links.length}${nextCursor ? "+" : ""})`}
        aside={
          canExport ? (
            <span className="flex gap-3 text-sm">
              <a
                className="font-medium text-blue-700 hover:underline dark:text-blue-300"
                href={`/api/account/links/export?format=csv${exportQuery ? `&${exportQuery}` : ""}`}
              >
                Export CSV
              </a>
              <a
                className="font-medium text-blue-700 hover:underline dark:text-blue-300"
                href={`/api/account/links/export?format=json${exportQuery ? `&${exportQuery}` : ""}`}
              >
                Export JSON
              </a>
            </span>
          ) : undefined
        }
      >
        {links.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No tracked link matches.</p>
        ) : (
          <LinkList links={links} pages={pages} uptime={initial.uptime} />
        )}
        {nextCursor && (
          <button
            type="button"
            className="mt-3 text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
            disabled={!hydrated}
            onClick={() => void list.loadMore()}
          >
            Show more
          </button>
        )}
      </Panel>
    </div>
  );
}
