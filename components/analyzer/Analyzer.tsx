"use client";

import { AnalyzeForm } from "./AnalyzeForm";
import { ErrorPanel } from "./ErrorPanel";
import { RateLimitNote } from "./RateLimitNote";
import { Results } from "./Results";
import { useAnalyze } from "./useAnalyze";

/** The landing page's analyzer: form, errors and limits beside it, then the results. */
export function Analyzer() {
  const { pending, result, failure, rateLimit, analyze, cancel } = useAnalyze();
  return (
    <div className="space-y-6">
      <section
        aria-label="Analyze"
        className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900/60 dark:ring-slate-800"
      >
        <AnalyzeForm pending={pending} onAnalyze={analyze} onCancel={cancel} />
        <div className="mt-4 space-y-2">
          <ErrorPanel failure={failure} />
          <RateLimitNote rateLimit={rateLimit} />
        </div>
      </section>
      {result ? <Results key={result.id} result={result} /> : <EmptyState />}
    </div>
  );
}

function EmptyState() {
  const items = [
    ["Verify a placement", "Is my link there, is it followed, does it resolve?"],
    ["Audit one page", "Internal vs external, nofollow / sponsored / ugc, broken links."],
    ["See the rendered DOM", "Links added by JavaScript count, as a crawler that renders sees them."],
  ];
  return (
    <ul className="grid gap-3 sm:grid-cols-3">
      {items.map(([title, text]) => (
        <li key={title} className="rounded-xl border border-dashed border-slate-300 p-4 dark:border-slate-700">
          <p className="font-semibold">{title}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{text}</p>
        </li>
      ))}
    </ul>
  );
}
