"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { pageOf, type Page } from "@/lib/schemas/common";
import { EvidenceCaptureSchema, type EvidenceCapture } from "@/lib/schemas/evidence";
import { CheckSchema, MonitorSchema, type MonitorPatchInput } from "@/lib/schemas/monitors";
import type { UptimeBatch } from "@/lib/schemas/stats";
import { api, loadPage, type ApiResult } from "../api";
import { checksPath, evidencePath, monitorPath, type Answer } from "../answers";
import { LocalTime } from "../LocalTime";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "../ui";
import { mutate, revalidatePaths, useApi } from "../use-api";
import { useHydrated } from "../useHydrated";
import { MonitorStatusBadge } from "./Badges";
import { CapturedEvidence } from "./CapturedEvidence";
import { MonitorTimeline, timelineOf } from "./MonitorTimeline";
import { TrackedLinks } from "./TrackedLinks";
import { PageSignalsList } from "./Verdict";
import { GoogleViewPanel } from "../google-view/GoogleViewPanel";
import { INTERVALS, intervalLabel, type Check, type Monitor, type Transition } from "./types";

const CheckPageSchema = pageOf(CheckSchema);

/** What the page's server component read for the first paint (app/(app)/app/(main)/monitors/[id]/page.tsx). */
export interface MonitorPageData {
  monitor: Answer<Monitor>;
  checks: Answer<Page<Check>>;
  /** The strips of the tracked links, a batch of 100 an answer. */
  uptime: Answer<UptimeBatch>[];
  /** The links' state changes, newest first (at most 50 a link): the API has no one request for them. */
  changes: Transition[];
}

/**
 * /app/monitors/{id}: the page's tracked links with their states, the timeline, and (members+) the controls.
 * The server hands over the first data. An action re-reads only what it changed: a change of the monitor
 * answers with the monitor; an added, edited or removed link re-reads the monitor (and the strips of a new
 * set of links). A check can change everything, state changes included, so the page is rendered again on
 * the server (router.refresh(): one request, whatever the number of links).
 */
export function MonitorDetail({ id, canEdit, initial }: { id: string; canEdit: boolean; initial: MonitorPageData }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const [refreshing, startRefresh] = useTransition();
  const read = useApi(monitorPath(id), MonitorSchema, { initial: initial.monitor });
  const checks = useApi(checksPath(id), CheckPageSchema, { initial: initial.checks });
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [capturing, setCapturing] = useState(false);
  const [captured, setCaptured] = useState<EvidenceCapture["items"] | null>(null);

  async function act<T>(action: Promise<ApiResult<T>>, done: string): Promise<ApiResult<T>> {
    setBusy(true);
    setError(null);
    setInfo(null);
    const result = await action;
    setBusy(false);
    if (!result.ok) setError(result.error);
    else setInfo(done);
    return result;
  }

  async function change(patch: MonitorPatchInput, done: string) {
    const result = await act(api("PATCH", monitorPath(id), patch, MonitorSchema), done);
    if (result.ok) read.replace(result.data);
  }

  async function checkNow() {
    const result = await act(api("POST", `${monitorPath(id)}/check`, {}, MonitorSchema), "Checked.");
    if (!result.ok) return;
    read.replace(result.data);
    startRefresh(() => router.refresh());
  }

  // A render of its own, not a check: it takes seconds, and a page error stores nothing.
  async function capture(links: Monitor["links"]) {
    setCapturing(true);
    setError(null);
    setInfo(null);
    setCaptured(null);
    const result = await api("POST", `${monitorPath(id)}/evidence`, {}, EvidenceCaptureSchema);
    setCapturing(false);
    if (!result.ok) return setError(result.error);
    const count = result.data.items.length;
    setInfo(`Captured evidence of ${count} tracked link${count === 1 ? "" : "s"}.`);
    setCaptured(result.data.items);
    // The evidence lists already open read their new record.
    await revalidatePaths(links.map((link) => evidencePath(link.id)));
  }

  const monitor = read.data;
  if (!monitor) return <Notice kind="error">{read.error ?? "This page could not be read."}</Notice>;
  const shownError = error ?? read.error ?? checks.error;
  const controlsOff = !hydrated || busy || refreshing;

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-xl font-bold tracking-tight wrap-anywhere sm:text-2xl">{monitor.url}</h1>
        <p className="text-sm text-slate-600 wrap-anywhere dark:text-slate-400">
          <MonitorStatusBadge monitor={monitor} /> {intervalLabel(monitor.intervalMinutes)} · last check{" "}
          <LocalTime iso={monitor.lastCheckedAt} /> · next check{" "}
          {monitor.paused ? "paused" : <LocalTime iso={monitor.nextCheckAt} />}
          {monitor.page && ` · HTTP ${monitor.page.httpStatus ?? "none"}`}
        </p>
        {monitor.tags.length > 0 && <p className="text-sm">Tags: {monitor.tags.join(", ")}</p>}
      </div>
      {shownError && <Notice kind="error">{shownError}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
      {canEdit && (
        <div className="flex flex-wrap items-end gap-2">
          <button
            type="button"
            className={buttonClass}
            disabled={controlsOff || capturing}
            onClick={() => void checkNow()}
          >
            {busy ? "Checking…" : "Check now"}
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={controlsOff || capturing || monitor.links.length === 0}
            onClick={() => void capture(monitor.links)}
          >
            {capturing ? "Capturing…" : "Capture evidence"}
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={controlsOff}
            onClick={() =>
              void change({ paused: !monitor.paused }, monitor.paused ? "Resumed: checked within a minute." : "Paused.")
            }
          >
            {monitor.paused ? "Resume" : "Pause"}
          </button>
          <label className="text-sm">
            <span className="sr-only">Check interval</span>
            <select
              aria-label="Check interval"
              value={monitor.intervalMinutes}
              disabled={!hydrated}
              onChange={(event) => void change({ intervalMinutes: Number(event.target.value) }, "Interval changed.")}
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
            disabled={!hydrated}
            onClick={() => {
              const tags = window.prompt("Tags, comma-separated", monitor.tags.join(", "));
              if (tags !== null)
                void change(
                  {
                    tags: tags
                      .split(",")
                      .map((t) => t.trim())
                      .filter(Boolean),
                  },
                  "Tags saved.",
                );
            }}
          >
            Edit tags
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={!hydrated}
            onClick={async () => {
              if (
                window.confirm("Stop monitoring this page and delete its history?") &&
                (await act(api("DELETE", monitorPath(id)), "Deleted.")).ok
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

      <GoogleViewPanel
        enabled={monitor.googleView}
        view={monitor.page?.googleView ?? null}
        comparison={monitor.googleViewComparison}
        disabled={controlsOff}
        onToggle={
          canEdit
            ? (next) =>
                void change(
                  { googleView: next },
                  next
                    ? "Google's view on: the page is rendered as Googlebot at the next check."
                    : "Google's view off: no link is judged by it any more.",
                )
            : null
        }
      />

      <Panel id="links" title={`Tracked links (${monitor.links.length})`}>
        {monitor.links.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No link is tracked on this page yet.</p>
        ) : (
          <TrackedLinks
            links={monitor.links}
            uptime={initial.uptime}
            canEdit={canEdit}
            editing={editing}
            onEdit={setEditing}
            act={act}
          />
        )}
        {canEdit && (
          <form
            className="mt-4 flex flex-wrap items-end gap-2"
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const target = String(new FormData(form).get("target") ?? "");
              const added = await act(
                mutate(api("POST", `${monitorPath(id)}/links`, { target }), [monitorPath(id)]),
                "Link added; it is checked within a minute.",
              );
              if (added.ok) form.reset();
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
            <button type="submit" className={secondaryButtonClass} disabled={!hydrated}>
              Add link
            </button>
          </form>
        )}
      </Panel>

      <MonitorTimeline items={timelineOf(checks.data?.items ?? [], initial.changes, monitor.links)} />
    </div>
  );
}
