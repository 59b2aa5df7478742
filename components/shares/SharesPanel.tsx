"use client";

import { useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { api } from "@/components/account/api";
import { Cell, ListHeader, rowClass } from "@/components/account/ListGrid";
import { Notice, secondaryButtonClass } from "@/components/account/ui";
import type { CreatedShare, Share, ShareChoices } from "@/lib/schemas/shares";
import { NewShareForm } from "./NewShareForm";
import { ScheduleEditor, ScheduleSummary } from "./ScheduleEditor";

const COLUMNS = "lg:grid-cols-[minmax(0,1.3fr)_minmax(0,1.4fr)_minmax(0,1.1fr)_minmax(0,1.3fr)_6rem_minmax(0,9rem)]";

/** Active, revoked (when), or expired (when). */
function status(share: Share, now: number): { label: string; tone: string } {
  if (share.revokedAt) return { label: "Revoked", tone: "text-slate-600 dark:text-slate-400" };
  if (share.expiresAt && Date.parse(share.expiresAt) <= now)
    return { label: "Expired", tone: "text-slate-600 dark:text-slate-400" };
  return { label: "Active", tone: "text-emerald-800 dark:text-emerald-300" };
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

/**
 * /app/reports: the team's client-report links. Admins and owners create them (the URL is shown once, with
 * a copy button) and revoke them; everyone else reads the list.
 */
export function SharesPanel({
  initial,
  subjects,
  choices,
  canManage,
  now,
}: {
  initial: Share[];
  subjects: Record<string, string>;
  choices: ShareChoices;
  canManage: boolean;
  now: number;
}) {
  const [shares, setShares] = useState(initial);
  const [labels, setLabels] = useState(subjects);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  function created(share: CreatedShare, subject: string) {
    const { url: _url, ...listed } = share;
    setShares((previous) => [listed, ...previous]);
    setLabels((previous) => ({ ...previous, [share.id]: subject }));
  }

  async function revoke(share: Share) {
    if (!window.confirm(`Revoke “${share.title}”? Whoever has the link will no longer see the report.`)) return;
    setError(null);
    setInfo(null);
    const result = await api("DELETE", `/api/account/shares/${share.id}`);
    if (!result.ok) return setError(result.error);
    setInfo(`Revoked “${share.title}”: its link now shows “not available”.`);
    // Revoking ends the share's scheduled report too.
    setShares((previous) =>
      previous.map((item) =>
        item.id === share.id ? { ...item, revokedAt: new Date().toISOString(), schedule: null } : item,
      ),
    );
  }

  function scheduleChanged(share: Share, message: string) {
    setError(null);
    setInfo(message);
    setShares((previous) => previous.map((item) => (item.id === share.id ? share : item)));
  }

  return (
    <div className="space-y-4">
      {canManage && <NewShareForm choices={choices} onCreated={created} />}
      {error && <Notice kind="error">{error}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
      <Panel id="shares" title={`Report links (${shares.length})`}>
        {shares.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No report link yet.{" "}
            {canManage
              ? "Create one above and send it to your client: they see the report without an account."
              : "Admins of your team create them."}
          </p>
        ) : (
          <div>
            <ListHeader columns={COLUMNS} labels={["Title", "Shows", "Created", "Emailed", "Status", ""]} />
            <ul aria-label="Report links">
              {shares.map((share) => {
                const state = status(share, now);
                // A saved audit never changes: only a tag's or a page's active share is emailed on a schedule.
                const schedulable = state.label === "Active" && share.scope !== "audit";
                const expanded = open === share.id && (schedulable || share.schedule !== null);
                return (
                  <li
                    key={share.id}
                    className={`${rowClass} grid-cols-[auto_minmax(0,1fr)] ${COLUMNS}`}
                    data-testid={`share-${share.title}`}
                  >
                    <Cell label="Title" quiet className="col-span-2 font-medium wrap-anywhere lg:col-span-1">
                      {share.title}
                    </Cell>
                    <Cell label="Shows" className="col-span-2 wrap-anywhere lg:col-span-1">
                      {labels[share.id] ?? share.scope}
                    </Cell>
                    <Cell label="Created" className="col-span-2 lg:col-span-1">
                      {day(share.createdAt)}
                      <span className="block wrap-anywhere text-slate-600 dark:text-slate-400">
                        by {share.createdBy.email}
                      </span>
                      {share.expiresAt && !share.revokedAt && (
                        <span className="block text-slate-600 dark:text-slate-400">until {day(share.expiresAt)}</span>
                      )}
                    </Cell>
                    <Cell label="Emailed" className="col-span-2 lg:col-span-1">
                      <ScheduleSummary schedule={share.schedule} />
                    </Cell>
                    <Cell label="Status">
                      <span className={`font-medium ${state.tone}`}>{state.label}</span>
                    </Cell>
                    <span className="flex flex-wrap gap-2 lg:justify-end">
                      {(share.schedule || (canManage && schedulable)) && (
                        <button
                          type="button"
                          className={secondaryButtonClass}
                          aria-expanded={expanded}
                          aria-controls={`schedule-panel-${share.id}`}
                          onClick={() => setOpen(expanded ? null : share.id)}
                        >
                          {canManage ? "Email…" : "Recipients"}
                          <span className="sr-only"> “{share.title}”</span>
                        </button>
                      )}
                      {canManage && state.label === "Active" && (
                        <button type="button" className={secondaryButtonClass} onClick={() => void revoke(share)}>
                          Revoke
                        </button>
                      )}
                    </span>
                    {expanded && (
                      <div
                        id={`schedule-panel-${share.id}`}
                        className="col-span-full mt-2 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 dark:bg-slate-950/50 dark:ring-slate-800"
                      >
                        <ScheduleEditor
                          share={share}
                          canManage={canManage && schedulable}
                          onChanged={scheduleChanged}
                        />
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </Panel>
    </div>
  );
}
