"use client";

import { useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { pageOf, type Page } from "@/lib/schemas/common";
import { MonitorSchema } from "@/lib/schemas/monitors";
import { api } from "../api";
import { MONITORS_PATH, type Answer } from "../answers";
import { buttonClass, Field, inputClass, Notice } from "../ui";
import { mutate, revalidatePaths, useApiPages } from "../use-api";
import { useHydrated } from "../useHydrated";
import { ImportCsv } from "./ImportCsv";
import { MonitorList } from "./MonitorList";
import { INTERVALS, type Monitor } from "./types";

const MonitorListSchema = pageOf(MonitorSchema);

/**
 * /app/monitors: add a page with its links (or import a CSV), and the table of monitored pages (the
 * server's first page, read again after an addition or an import).
 */
export function MonitorsPanel({ canEdit, initial }: { canEdit: boolean; initial: Answer<Page<Monitor>> }) {
  const hydrated = useHydrated();
  const list = useApiPages(MONITORS_PATH, MonitorListSchema, { initial });
  const monitors = list.items;
  const [actionError, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const error = actionError ?? list.error;

  async function add(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const tags = String(data.get("tags") ?? "")
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean);
    const links = String(data.get("links") ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .map((target) => ({ target }));
    setError(null);
    setInfo(null);
    const result = await mutate(
      api(
        "POST",
        "/api/account/monitors",
        { url: String(data.get("url") ?? ""), intervalMinutes: Number(data.get("interval")), tags, links },
        MonitorSchema,
      ),
      [MONITORS_PATH],
    );
    if (!result.ok) return setError(result.error);
    setInfo(`Monitoring ${result.data.url}; the first check runs within a minute.`);
    form.reset();
  }

  return (
    <div className="space-y-6">
      {error && <Notice kind="error">{error}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
      {canEdit && (
        <div className="grid gap-4 md:grid-cols-2">
          <Panel id="add-monitor" title="Monitor a page">
            <form onSubmit={add} className="space-y-3">
              <Field label="Page URL">
                <input
                  name="url"
                  type="url"
                  required
                  className={inputClass}
                  placeholder="https://blog.example/review"
                />
              </Field>
              <Field label="Check interval">
                <select name="interval" defaultValue={1440} className={inputClass}>
                  {INTERVALS.map((item) => (
                    <option key={item.minutes} value={item.minutes}>
                      {item.label}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Tags (comma-separated)">
                <input name="tags" className={inputClass} placeholder="guest posts, 2026" />
              </Field>
              <Field label="Links to track (one per line: a URL, or a domain for any link to it)">
                <textarea
                  name="links"
                  rows={3}
                  className={`${inputClass} font-mono`}
                  placeholder="https://mysite.example/pricing&#10;mysite.example"
                />
              </Field>
              <button type="submit" className={buttonClass} disabled={!hydrated}>
                Add monitor
              </button>
            </form>
          </Panel>
          <Panel id="import" title="Import tracked links (CSV)">
            <ImportCsv onImported={() => void revalidatePaths([MONITORS_PATH])} />
          </Panel>
        </div>
      )}
      <Panel id="monitors" title={`Monitored pages (${monitors.length}${list.nextCursor ? "+" : ""})`}>
        {monitors.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No page is monitored yet.{canEdit ? " Add one above, or import a CSV." : ""}
          </p>
        ) : (
          <MonitorList monitors={monitors} />
        )}
        {list.nextCursor && (
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
