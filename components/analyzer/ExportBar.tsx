"use client";

import { useState } from "react";
import type { DemoAnalyzeRequest, DemoAnalyzeSuccess } from "@/lib/api/schemas";
import { linksToCsv } from "./links-csv";
import { curlCommand } from "./curl";
import { downloadText, exportBaseName } from "./download";

const buttonClass =
  "inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800";

/** Client-side exports: CSV (with a BOM so Excel reads UTF-8), the raw JSON answer, and the curl call. */
export function ExportBar({ data, request }: { data: DemoAnalyzeSuccess; request: DemoAnalyzeRequest }) {
  const [message, setMessage] = useState("");
  const [fallback, setFallback] = useState<string | null>(null);
  const base = exportBaseName(data.domain);

  async function copyCurl() {
    const command = curlCommand(window.location.origin, request);
    try {
      await navigator.clipboard.writeText(command);
      setFallback(null);
      setMessage("curl command copied.");
    } catch {
      // No clipboard permission (or an insecure origin): show it to copy by hand.
      setFallback(command);
      setMessage("Copy the command below.");
    }
  }

  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={buttonClass}
          onClick={() => downloadText(`\uFEFF${linksToCsv(data.links)}`, `${base}.csv`, "text/csv;charset=utf-8")}
        >
          Export CSV
        </button>
        <button
          type="button"
          className={buttonClass}
          onClick={() => downloadText(`${JSON.stringify(data, null, 2)}\n`, `${base}.json`, "application/json")}
        >
          Export JSON
        </button>
        <button type="button" className={buttonClass} onClick={copyCurl}>
          Copy as curl
        </button>
      </div>
      <p role="status" className="min-h-4 text-xs text-slate-600 dark:text-slate-400">
        {message}
      </p>
      {fallback && (
        <textarea
          readOnly
          aria-label="curl command"
          value={fallback}
          rows={4}
          onFocus={(event) => event.currentTarget.select()}
          className="w-full max-w-xl rounded-md border border-slate-300 bg-slate-50 p-2 font-mono text-xs dark:border-slate-600 dark:bg-slate-900"
        />
      )}
    </div>
  );
}
