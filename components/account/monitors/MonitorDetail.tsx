"use client";

import { useCallback, useEffect, useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import type { EvidenceCapture } from "@/lib/schemas/evidence";
import { api, loadPage } from "../api";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "../ui";
import { MonitorStatusBadge } from "./Badges";
import { CapturedEvidence } from "./CapturedEvidence";
import { TrackedLinks } from "./TrackedLinks";
import { PageSignalsList } from "./Verdict";
import { INTERVALS, intervalLabel, when, type Check, type Monitor, type Transition } from "./types";

type TimelineItem = { at: string; key: string; text: string; tone: "ok" | "error" | "change" };

/** /app/monitors/{id}: the page's tracked links with their states, the timeline, and (members+) the controls. */
export function MonitorDetail({ id, canEdit }: { id: string; canEdit: boolean }) {
  const [monitor, setMonitor] = useState<Monitor | null>(null);
  const [timeline, setTimeline] = useState<TimelineItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [capturing, setCapturing] = useState(false);
  const [captured, setCaptured] = useState<EvidenceCapture["items"] | null>(null);
  // Bumped by a capture, so the evidence lists already open read their new record.
  const [evidenceVersion, setEvidenceVersion] = useState(0);

  const load = useCallback(async () => {
    const result = await api<Monitor>("GET", `/api/account/monitors/${id}`);
    if (!result.ok) return setError(result.error);
    setMonitor(result.data);
    const checks = await api<{ items: Check[] }>("GET", `/api/account/monitors/${id}/checks?limit=50`);
    const histories = await Promise.all(
      result.data.links.map((link) =>
        api<{ items: Transition[] }>("GET", `/api/account/links/${link.id}/history?limit=50`).then((h) => ({
          link,
          h,
        })),
      ),
    );
    const items: TimelineItem[] = [];
    if (checks.ok) {
      for (const check of checks.data.items) {
        items.push({
          at: check.finishedAt,
          key: `c-${check.id}`,
          tone: check.outcome === "ok" ? "ok" : "error",
          text:
            check.outcome === "ok"
              ? `Checked: page loaded (HTTP ${check.pageStatus ?? "?"}), ${check.linksFound ?? 0} link${check.linksFound === 1 ? "" : "s"} on it`
              : `Checked: page error (${check.errorCode ?? "error"}${check.pageStatus ? `, HTTP ${check.pageStatus}` : ""}); link states kept`,
        });
      }
    }
    for (const { link, h } of histories) {
      if (!h.ok) continue;
      for (const change of h.data.items)
        items.push({
          at: change.createdAt,
          key: `t-${change.id}`,
          tone: "change",
          text: `${link.target}: ${change.fromState} → ${change.toState}`,
        });
    }
    // Newest first; a state change sorts above the check that caused it.
    items.sort((a, b) => b.at.localeCompare(a.at) || (a.tone === "change" ? -1 : 1));
    setTimeline(items);
  }, [id]);

  useEffect(() => {
    // Loading from the API is the effect's purpose (the page renders without it first).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  async function act<T>(promise: Promise<{ ok: true; data: T } | { ok: false; error: string }>, done: string) {
    setBusy(true);
    setError(null);
    setInfo(null);
    const result = await promise;
    setBusy(false);
    if (!result.ok) setError(result.error);
    else setInfo(done);
    await load();
    return result.ok;
  }

  // A render of its own, not a check: it takes seconds, and a page error stores nothing.
  async function capture() {
    setCapturing(true);
    setError(null);
    setInfo(null);
    setCaptured(null);
    const result = await api<EvidenceCapture>("POST", `/api/account/monitors/${id}/evidence`, {});
    setCapturing(false);
    if (!result.ok) return setError(result.error);
    const count = result.data.items.length;
    setInfo(`Captured evidence of ${count} tracked link${count === 1 ? "" : "s"}.`);
    setCaptured(result.data.items);
    setEvidenceVersion((version) => version + 1);
  }

  if (!monitor)
    return error ? <Notice kind="error">{error}</Notice> : <p className="text-sm text-slate-600">Loading…</p>;

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-xl font-bold tracking-tight wrap-anywhere sm:text-2xl">{monitor.url}</h1>
        <p className="text-sm text-slate-600 wrap-anywhere dark:text-slate-400">
          <MonitorStatusBadge monitor={monitor} /> {intervalLabel(monitor.intervalMinutes)} · last check{" "}
          {when(monitor.lastCheckedAt)} · next check {monitor.paused ? "paused" : when(monitor.nextCheckAt)}
          {monitor.page && ` · HTTP ${monitor.page.httpStatus ?? "none"}`}
        </p>
        {monitor.tags.length > 0 && <p className="text-sm">Tags: {monitor.tags.join(", ")}</p>}
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
      {canEdit && (
        <div className="flex flex-wrap items-end gap-2">
          <button
            type="button"
            className={buttonClass}
            disabled={busy || capturing}
            onClick={() => void act(api("POST", `/api/account/monitors/${id}/check`, {}), "Checked.")}
          >
            {busy ? "Checking…" : "Check now"}
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={busy || capturing || monitor.links.length === 0}
            onClick={() => void capture()}
          >
            {capturing ? "Capturing…" : "Capture evidence"}
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={busy}
            onClick={() =>
              void act(
                api("PATCH", `/api/account/monitors/${id}`, { paused: !monitor.paused }),
                monitor.paused ? "Resumed: checked within a minute." : "Paused.",
              )
            }
          >
            {monitor.paused ? "Resume" : "Pause"}
          </button>
          <label className="text-sm">
            <span className="sr-only">Check interval</span>
            <select
              aria-label="Check interval"
              value={monitor.intervalMinutes}
              onChange={(event) =>
                void act(
                  api("PATCH", `/api/account/monitors/${id}`, { intervalMinutes: Number(event.target.value) }),
                  "Interval changed.",
                )
              }
              className="rounded-md border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-700 dark:bg-slate-900"
            >
              {INTERVALS.map((item) => (
                <option key={item.minutes} value={item.minutes}>
                  {item.label}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => {
              const tags = window.prompt("Tags, comma-separated", monitor.tags.join(", "));
              if (tags !== null)
                void act(
                  api("PATCH", `/api/account/monitors/${id}`, {
                    tags: tags
                      .split(",")
                      .map((t) => t.trim())
                      .filter(Boolean),
                  }),
                  "Tags saved.",
                );
            }}
          >
            Edit tags
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={async () => {
              if (
                window.confirm("Stop monitoring this page and delete its history?") &&
                (await act(api("DELETE", `/api/account/monitors/${id}`), "Deleted."))
              )
                loadPage("/app/monitors");
            }}
          >
            Delete monitor
          </button>
        </div>
      )}

      {captured && captured.length > 0 && <CapturedEvidence items={captured} links={monitor.links} />}

      {monitor.page && (
        <Panel id="page-signals" title="What the page says">
          <PageSignalsList page={monitor.page} monitoredUrl={monitor.url} />
        </Panel>
      )}

      <Panel id="links" title={`Tracked links (${monitor.links.length})`}>
        {monitor.links.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No link is tracked on this page yet.</p>
        ) : (
          <TrackedLinks
            links={monitor.links}
            canEdit={canEdit}
            editing={editing}
            onEdit={setEditing}
            act={act}
            evidenceVersion={evidenceVersion}
          />
        )}
        {canEdit && (
          <form
            className="mt-4 flex flex-wrap items-end gap-2"
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const data = new FormData(form);
              if (
                await act(
                  api("POST", `/api/account/monitors/${id}/links`, { target: String(data.get("target") ?? "") }),
                  "Link added; it is checked within a minute.",
                )
              )
                form.reset();
            }}
          >
            <div className="min-w-0 flex-1 basis-72">
              <Field label="Track another link">
                <input
                  name="target"
                  required
                  className={inputClass}
                  placeholder="https://mysite.example/page or mysite.example"
                />
              </Field>
            </div>
            <button type="submit" className={secondaryButtonClass}>
              Add link
            </button>
          </form>
        )}
      </Panel>

      <Panel id="timeline" title="Timeline">
        {timeline.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">Not checked yet.</p>
        ) : (
          <ol className="space-y-2 text-sm sm:space-y-1" data-testid="timeline">
            {timeline.map((item) => (
              <li key={item.key} className="flex flex-col sm:flex-row sm:gap-3">
                <time className="shrink-0 text-slate-600 dark:text-slate-400" dateTime={item.at}>
                  {when(item.at)}
                </time>
                {/* The text names URLs: they break where the line ends, not one character a line. */}
                <span
                  className={`min-w-0 wrap-anywhere ${item.tone === "error" ? "text-red-800 dark:text-red-300" : item.tone === "change" ? "font-medium" : ""}`}
                >
                  {item.text}
                </span>
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </div>
  );
}
