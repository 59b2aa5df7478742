"use client";

import { useCallback, useEffect, useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { api } from "../api";
import { buttonClass, Field, inputClass, Notice } from "../ui";
import { ImportCsv } from "./ImportCsv";
import { MonitorList } from "./MonitorList";
import { INTERVALS, type Monitor } from "./types";

/** /app/monitors: add a page with its links (or import a CSV), and the table of monitored pages. */
export function MonitorsPanel({ canEdit }: { canEdit: boolean }) {
  const [monitors, setMonitors] = useState<Monitor[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);

  const load = useCallback(async (cursor?: string) => {
    const result = await api<{ items: Monitor[]; nextCursor: string | null }>(
      "GET",
      `/api/account/monitors?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    if (!result.ok) return setError(result.error);
    setMonitors((previous) => (cursor ? [...previous, ...result.data.items] : result.data.items));
    setNextCursor(result.data.nextCursor);
  }, []);

  useEffect(() => {
    // Loading the list from the API is the effect's purpose (the page renders without it first).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

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
    const result = await api<Monitor>("POST", "/api/account/monitors", {
      url: String(data.get("url") ?? ""),
      intervalMinutes: Number(data.get("interval")),
      tags,
      links,
    });
    if (!result.ok) return setError(result.error);
    setInfo(`Monitoring ${result.data.url}; the first check runs within a minute.`);
    form.reset();
    await load();
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
              <button type="submit" className={buttonClass}>
                Add monitor
              </button>
            </form>
          </Panel>
          <Panel id="import" title="Import tracked links (CSV)">
            <ImportCsv onImported={() => void load()} />
          </Panel>
        </div>
      )}
      <Panel id="monitors" title={`Monitored pages (${monitors.length}${nextCursor ? "+" : ""})`}>
        {monitors.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No page is monitored yet.{canEdit ? " Add one above, or import a CSV." : ""}
          </p>
        ) : (
          <MonitorList monitors={monitors} />
        )}
        {nextCursor && (
          <button
            type="button"
            className="mt-3 text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
            onClick={() => void load(nextCursor)}
          >
            Show more
          </button>
        )}
      </Panel>
    </div>
  );
}
