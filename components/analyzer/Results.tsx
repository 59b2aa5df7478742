"use client";

import { useCallback, useState } from "react";
import { ExportBar } from "./ExportBar";
import { FindMyLink } from "./FindMyLink";
import { LinkMixChart } from "./LinkMixChart";
import { LinksTable } from "./LinksTable";
import { Panel } from "./Panel";
import { Snapshot } from "./Snapshot";
import { StatsSummary } from "./StatsSummary";
import type { AnalyzeSuccess } from "./useAnalyze";

/** Everything about one answer. Mounted with key={result.id}, so selection and filters start fresh. */
export function Results({ result }: { result: AnalyzeSuccess }) {
  const { data, request, mode } = result;
  const [selected, setSelected] = useState<number | null>(null);
  const select = useCallback((position: number) => setSelected(position), []);

  return (
    <div className="space-y-4" data-testid="results">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold tracking-tight">Results</h2>
          <p className="text-sm break-all text-slate-700 dark:text-slate-300">
            <span className="font-mono">{data.url}</span>
            <span className="text-slate-500 dark:text-slate-400">
              {" "}
              · {mode === "url" ? "rendered in Chromium" : `pasted HTML, classified as ${data.domain}`}
            </span>
          </p>
        </div>
        <ExportBar data={data} request={request} />
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

      <div className="grid gap-4 xl:grid-cols-[minmax(0,5fr)_minmax(0,3fr)]">
        <Panel id="links-heading" title={`Links (${data.links.length.toLocaleString("en-US")})`} className="xl:self-start">
          <LinksTable links={data.links} selected={selected} onSelect={select} />
        </Panel>
        <Panel id="snapshot-heading" title="Snapshot" className="flex flex-col xl:sticky xl:top-4 xl:h-[calc(100vh-2rem)] xl:self-start">
          <Snapshot html={data.sanitizedHtml} pageUrl={data.url} selected={selected} onSelect={select} />
        </Panel>
      </div>
    </div>
  );
}
