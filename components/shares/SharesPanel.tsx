"use client";

import { useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { api } from "@/components/account/api";
import { Cell, ListHeader, rowClass } from "@/components/account/ListGrid";
import { Notice, secondaryButtonClass } from "@/components/account/ui";
import type { CreatedShare, Share, ShareChoices } from "@/lib/schemas/shares";
import { NewShareForm } from "./NewShareForm";

const COLUMNS = "lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1.6fr)_minmax(0,1.2fr)_7rem_6rem]";

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
    setShares((previous) =>
      previous.map((item) => (item.id === share.id ? { ...item, revokedAt: new Date().toISOString() } : item)),
    );
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
            <ListHeader columns={COLUMNS} labels={["Title", "Shows", "Created", "Status", ""]} />
            <ul aria-label="Report links">
              {shares.map((share) => {
                const state = status(share, now);
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
                    <Cell label="Status">
                      <span className={`font-medium ${state.tone}`}>{state.label}</span>
                    </Cell>
                    <span className="flex lg:justify-end">
                      {canManage && state.label === "Active" && (
                        <button type="button" className={secondaryButtonClass} onClick={() => void revoke(share)}>
                          Revoke
                        </button>
                      )}
                    </span>
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
