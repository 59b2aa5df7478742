"use client";

import { ExportBar } from "./ExportBar";
import { ResultView } from "./ResultView";
import type { AnalyzeSuccess } from "./useAnalyze";

/** The landing page's answer: the shared result view with client-side exports. Mounted with key={result.id}. */
export function Results({ result }: { result: AnalyzeSuccess }) {
  const { data, request, mode } = result;
  return (
    <ResultView
      data={data}
      subtitle={mode === "url" ? "rendered in Chromium" : `pasted HTML, classified as ${data.domain}`}
      actions={<ExportBar data={data} request={request} />}
    />
  );
}
