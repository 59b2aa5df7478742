"use client";

import { useCallback, useEffect, useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { api } from "../api";
import { inputClass, Notice } from "../ui";
import { LinkList } from "./LinkList";
import { VERDICT_LABELS, VERDICT_VALUES } from "@/lib/schemas/verdict";
import { STATES, type Monitor, type TrackedLink } from "./types";

interface Filters {
  state: string;
  verdict: string;
  tag: string;
  monitorId: string;
  q: string;
}

function query(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== "") params.set(key, value.trim());
  return params.toString();
}

/** /app/links: every tracked link of the team, filtered by state, verdict, tag, page and text; exports for members. */
export function LinksPanel({ canExport, initial }: { canExport: boolean; initial: Partial<Filters> }) {
  const [filters, setFilters] = useState<Filters>({
    state: "",
    verdict: "",
    tag: "",
    monitorId: "",
    q: "",
    ...initial,
  });
  const [links, setLinks] = useState<TrackedLink[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [pages, setPages] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (current: Filters, cursor?: string) => {
    const q = query(current);
    const result = await api<{ items: TrackedLink[]; nextCursor: string | null }>(
      "GET",
      `/api/account/links?limit=100${q ? `&${q}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    if (!result.ok) return setError(result.error);
    setError(null);
    setLinks((previous) => (cursor ? [...previous, ...result.data.items] : result.data.items));
    setNextCursor(result.data.nextCursor);
  }, []);

  useEffect(() => {
    // The page names come from the monitors list (one request for up to 100 pages).
    void api<{ items: Monitor[] }>("GET", "/api/account/monitors?limit=100").then((result) => {
      if (result.ok) setPages(new Map(result.data.items.map((item) => [item.id, item.url])));
    });
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => void load(filters), 250);
    return () => clearTimeout(timer);
  }, [filters, load]);

  const set = (key: keyof Filters) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setFilters({ ...filters, [key]: event.target.value });
  const exportQuery = query(filters);

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
          <LinkList links={links} pages={pages} />
        )}
        {nextCursor && (
          <button
            type="button"
            className="mt-3 text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
            onClick={() => void load(filters, nextCursor)}
          >
            Show more
          </button>
        )}
      </Panel>
    </div>
  );
}
