"use client";

import { Fragment, useState } from "react";
import { ImportResultSchema } from "@/lib/schemas/monitors";
import { postCsv } from "../api";
import { buttonClass, Field, inputClass, Notice } from "../ui";
import type { ImportResult } from "./types";

const CSV_COLUMNS = [
  "page_url",
  "target_url",
  "match",
  "expected_anchor",
  "expected_rel",
  "tags",
  "expires_on",
  "cost",
  "notes",
];

/** Paste or upload a CSV of tracked links; a dry run shows what would happen first. */
export function ImportCsv({ onImported }: { onImported: () => void }) {
  const [text, setText] = useState("");
  const [dryRun, setDryRun] = useState(true);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    const answer = await postCsv(`/api/account/links/import${dryRun ? "?dryRun=1" : ""}`, text, ImportResultSchema);
    setBusy(false);
    if (!answer.ok) return setError(answer.error);
    setResult(answer.data);
    if (!dryRun) onImported();
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Import tracked links">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Columns:{" "}
        <code>
          {CSV_COLUMNS.map((column, index) => (
            // A line may break after each comma, so the list wraps on a phone instead of widening the page.
            <Fragment key={column}>
              {index > 0 && (
                <>
                  ,<wbr />
                </>
              )}
              {column}
            </Fragment>
          ))}
        </code>{" "}
        (header row required; only page_url and target_url are needed). Separate tags with <code>|</code> or{" "}
        <code>;</code>. At most 5,000 rows. Importing the same file again changes nothing.
      </p>
      <Field label="CSV file">
        <input
          type="file"
          accept=".csv,text/csv"
          className="mt-1 block max-w-full text-sm"
          onChange={async (event) => {
            const file = event.target.files?.[0];
            if (file) setText(await file.text());
          }}
        />
      </Field>
      <Field label="Or paste CSV">
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={5}
          className={`${inputClass} font-mono`}
          placeholder="page_url,target_url&#10;https://blog.example/review,https://mysite.example/"
        />
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={dryRun} onChange={(event) => setDryRun(event.target.checked)} /> Dry run
        (validate only)
      </label>
      <button type="submit" className={buttonClass} disabled={busy || text.trim() === ""}>
        {dryRun ? "Validate CSV" : "Import CSV"}
      </button>
      {error && <Notice kind="error">{error}</Notice>}
      {result && (
        <div className="space-y-2" data-testid="import-result">
          <Notice kind="info">
            {dryRun ? "Would create" : "Created"} {result.created}, {dryRun ? "update" : "updated"} {result.updated},
            unchanged {result.unchanged}; {result.errors.length} row(s) with errors.
          </Notice>
          {result.errors.length > 0 && (
            <ul className="max-h-48 overflow-auto text-sm text-red-800 dark:text-red-300">
              {result.errors.map((item) => (
                <li key={item.row}>
                  Row {item.row}: {item.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
