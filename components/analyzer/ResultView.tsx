"use client";

import { useCallback, useState } from "react";
import type { Stats } from "@/lib/api/schemas";
import { FindMyLink } from "./FindMyLink";
import { LinkMixChart } from "./LinkMixChart";
import type { ViewLink } from "./link-model";
import { LinksTable } from "./LinksTable";
import { Panel } from "./Panel";
import { Snapshot } from "./Snapshot";
import { StatsSummary } from "./StatsSummary";

/** What the result view shows: the public answer's fields, which a saved audit has too. */
export interface ResultData {
  url: string;
  domain: string;
  /** Public Links, or a saved audit's with their signals (badges and filters then show). */
  links: readonly ViewLink[];
  stats: Stats;
  /** Absent when the caller did not ask for the snapshot: its panel is left out. */
  sanitizedHtml?: string;
}

/**
 * One analysis, whoever made it: the landing page's answer and a team's saved audit render through
 * this same view (stats, link mix, find-my-link, the filterable table, the snapshot). Callers bring the
 * heading, the line under it and their own actions (client-side exports on the landing page; API
 * exports, re-run and delete in the app). Mount it with a key per analysis, so selection and filters
 * start fresh.
 */
export function ResultView({
  data,
  title = "Results",
  titleLevel = "h2",
  subtitle,
  details,
  actions,
}: {
  data: ResultData;
  title?: React.ReactNode;
  /** h1 where the result is the page's subject (a saved audit); h2 under the landing page's own heading. */
  titleLevel?: "h1" | "h2";
  subtitle?: React.ReactNode;
  /** Lines under the subtitle (a saved audit's Google view). */
  details?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  const Title = titleLevel;
  const [selected, setSelected] = useState<number | null>(null);
  const select = useCallback((position: number) => setSelected(position), []);

  return (
    <div className="space-y-4" data-testid="results">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Title
            className={
              titleLevel === "h1"
                ? "text-xl font-bold tracking-tight break-words sm:text-2xl"
                : "text-lg font-semibold tracking-tight"
            }
          >
            {title}
          </Title>
          <p className="text-sm break-words text-slate-700 dark:text-slate-300">
            <span className="font-mono break-all">{data.url}</span>
            {subtitle && <span className="text-slate-500 dark:text-slate-400"> · {subtitle}</span>}
          </p>
          {details}
        </div>
        {actions}
      </div>

      <StatsSummary stats={data.stats} />

      <div className="grid gap-4 lg:grid-cols-5">
        <Panel id="mix-heading" title="Link mix" className="lg:col-span-3">
          <LinkMixChart stats={data.stats} links={data.links} />
        </Panel>
        <Panel id="find-heading" title="Find my link" className="lg:col-span-2">
          <FindMyLink links={data.links} onSelect={select} />
        </Panel>
      </div>

      {/* Table and snapshot side by side only when the view itself is wide enough for the table's columns
          (76rem: the landing page at 1280 px), not merely the window: inside the app's narrower column
          they stack, and the table gets the full width. */}
      <div className="@container">
        <div
          className={
            data.sanitizedHtml === undefined ? "" : "grid gap-4 @min-[76rem]:grid-cols-[minmax(0,5fr)_minmax(0,3fr)]"
          }
        >
          <Panel
            id="links-heading"
            title={`Links (${data.links.length.toLocaleString("en-US")})`}
            className="@min-[76rem]:self-start"
          >
            <LinksTable links={data.links} selected={selected} onSelect={select} />
          </Panel>
          {data.sanitizedHtml !== undefined && (
            <Panel
              id="snapshot-heading"
              title="Snapshot"
              className="flex flex-col @min-[76rem]:sticky @min-[76rem]:top-4 @min-[76rem]:h-[calc(100vh-2rem)] @min-[76rem]:self-start"
            >
              <Snapshot html={data.sanitizedHtml} pageUrl={data.url} selected={selected} onSelect={select} />
            </Panel>
          )}
        </div>
      </div>
    </div>
  );
}
