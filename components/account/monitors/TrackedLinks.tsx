"use client";

import { useState } from "react";
import { LinkUptime } from "@/components/charts/LinkUptime";
import { UptimeBatches } from "@/components/charts/UptimeBatches";
import type { UptimeBatch } from "@/lib/schemas/stats";
import { api, type ApiResult } from "../api";
import { linkPath, monitorPath, type Answer } from "../answers";
import { Cell, ListHeader, rowClass } from "../ListGrid";
import { LocalTime } from "../LocalTime";
import { buttonClass, Field, inputClass, secondaryButtonClass } from "../ui";
import { mutate } from "../use-api";
import { useHydrated } from "../useHydrated";
import { StateBadge } from "./Badges";
import { SignalBadges } from "@/components/analyzer/badges";
import { EvidenceList } from "./EvidenceList";
import { VerdictSummary } from "./Verdict";
import { relOfSeen, type TrackedLink } from "./types";

/** Runs an action and shows how it went (MonitorDetail's). */
type Act = (action: Promise<ApiResult<unknown>>, done: string) => Promise<ApiResult<unknown>>;

/** A change of a tracked link, then the monitor read again (its links are part of it). */
const changeLink = (link: TrackedLink, action: Promise<ApiResult<unknown>>) =>
  mutate(action, [monitorPath(link.monitorId)]);

// Fixed widths for the badge and the buttons: the header row is a grid of its own and must line up.
const COLUMNS = "lg:grid-cols-[minmax(0,1.7fr)_7.5rem_minmax(0,1.6fr)_minmax(0,1.5fr)_minmax(0,1fr)_10rem]";

/**
 * A monitored page's tracked links with their 90-day strips (the server's, or one request a hundred
 * links): rows on a wide screen, cards on a phone; members edit and remove them. Everyone may open a
 * link's evidence.
 */
export function TrackedLinks({
  links,
  uptime,
  canEdit,
  editing,
  onEdit,
  act,
}: {
  links: TrackedLink[];
  uptime: Answer<UptimeBatch>[];
  canEdit: boolean;
  editing: string | null;
  onEdit: (id: string | null) => void;
  act: Act;
}) {
  const hydrated = useHydrated();
  const [showingEvidence, setShowingEvidence] = useState<ReadonlySet<string>>(new Set());
  const toggleEvidence = (id: string) =>
    setShowingEvidence((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div>
      <ListHeader columns={COLUMNS} labels={["Target", "State", "Verdict", "As last seen", "Expected", ""]} />
      <ul aria-label="Tracked links">
        <UptimeBatches links={links} answers={uptime}>
          {(link, linkUptime) => (
            <li
              key={link.id}
              className={`${rowClass} grid-cols-[auto_minmax(0,1fr)] ${COLUMNS}`}
              data-testid={`link-${link.target}`}
            >
              <Cell label="Target" quiet className="col-span-2 lg:col-span-1">
                {/* A URL has no spaces: it may break anywhere (after a hyphen first), but only in this, the widest cell. */}
                <span className="font-medium wrap-anywhere">{link.target}</span>{" "}
                <span className="text-slate-600 dark:text-slate-400">({link.match})</span>
              </Cell>
              <Cell label="State" quiet>
                <StateBadge state={link.state} />
              </Cell>
              <Cell label="Verdict" className="col-span-2 lg:col-span-1">
                <VerdictSummary verdict={link.verdict} matchCount={link.matchCount} />
              </Cell>
              <Cell label="As last seen">
                {link.current ? (
                  <>
                    <span className="break-words">
                      “{link.current.anchorText ?? ""}” · {relOfSeen(link.current)} · HTTP{" "}
                      {link.current.httpStatus ?? "not checked"}
                    </span>
                    <SignalBadges signals={link.current.signals} />
                    <span className="block text-slate-600 dark:text-slate-400">
                      last seen <LocalTime iso={link.lastSeenAt} />
                    </span>
                  </>
                ) : (
                  <span className="text-slate-600 dark:text-slate-400">never seen</span>
                )}
              </Cell>
              <Cell label="Expected" className="col-span-2 break-words lg:col-span-1">
                {link.expectedRel ?? "any rel"}
                {link.expectedAnchor ? ` · “${link.expectedAnchor}”` : ""}
                {link.expiresOn && (
                  <>
                    {" "}
                    · until <span className="whitespace-nowrap">{link.expiresOn}</span>
                  </>
                )}
              </Cell>
              {canEdit && (
                <span className="col-span-2 flex gap-2 lg:col-span-1 lg:justify-end">
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    disabled={!hydrated}
                    onClick={() => onEdit(editing === link.id ? null : link.id)}
                    aria-expanded={editing === link.id}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    disabled={!hydrated}
                    onClick={() =>
                      void act(changeLink(link, api("DELETE", linkPath(link.id))), `Stopped tracking ${link.target}.`)
                    }
                  >
                    Remove
                  </button>
                </span>
              )}
              <LinkUptime uptime={linkUptime} label={link.target} className="col-span-2 lg:col-span-5" />
              {/* Under Edit and Remove, in the column the strip leaves free. */}
              <span className="col-span-2 flex lg:col-span-1 lg:justify-end">
                <EvidenceToggle
                  target={link.target}
                  controls={`evidence-${link.id}`}
                  open={showingEvidence.has(link.id)}
                  disabled={!hydrated}
                  onToggle={() => toggleEvidence(link.id)}
                />
              </span>
              {editing === link.id && <ExpectationsForm link={link} act={act} onSaved={() => onEdit(null)} />}
              {showingEvidence.has(link.id) && (
                <EvidenceList id={`evidence-${link.id}`} linkId={link.id} target={link.target} />
              )}
            </li>
          )}
        </UptimeBatches>
      </ul>
    </div>
  );
}

/** Opens and closes a tracked link's evidence; its name says which link, for a screen reader's list of buttons. */
function EvidenceToggle({
  target,
  controls,
  open,
  disabled,
  onToggle,
}: {
  target: string;
  controls: string;
  open: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className={`${secondaryButtonClass} gap-1`}
      disabled={disabled}
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      onClick={onToggle}
    >
      Evidence<span className="sr-only"> of {target}</span>
      <span aria-hidden="true" className={`text-xs transition-transform ${open ? "rotate-180" : ""}`}>
        ▾
      </span>
    </button>
  );
}

/** What a tracked link should look like, and its bookkeeping (notes, cost, end date). */
function ExpectationsForm({ link, act, onSaved }: { link: TrackedLink; act: Act; onSaved: () => void }) {
  return (
    <form
      aria-label={`Expectations of ${link.target}`}
      className="col-span-2 grid gap-2 rounded-md bg-slate-50 p-3 sm:grid-cols-3 lg:col-span-6 dark:bg-slate-800/40"
      onSubmit={async (event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const text = (name: string) => String(data.get(name) ?? "").trim();
        const rel = text("expectedRel");
        const saved = await act(
          changeLink(
            link,
            api("PATCH", linkPath(link.id), {
              expectedAnchor: text("expectedAnchor") || null,
              expectedRel: rel === "" ? null : rel,
              notes: text("notes") || null,
              cost: text("cost") === "" ? null : Number(text("cost")),
              expiresOn: text("expiresOn") || null,
            }),
          ),
          "Expectations saved.",
        );
        if (saved.ok) onSaved();
      }}
    >
      <Field label="Expected anchor">
        <input name="expectedAnchor" defaultValue={link.expectedAnchor ?? ""} className={inputClass} />
      </Field>
      <Field label="Expected rel">
        <select name="expectedRel" defaultValue={link.expectedRel ?? ""} className={inputClass}>
          <option value="">any</option>
          <option value="follow">follow</option>
          <option value="nofollow">nofollow</option>
          <option value="sponsored">sponsored</option>
          <option value="ugc">ugc</option>
        </select>
      </Field>
      <Field label="Expires on">
        <input name="expiresOn" type="date" defaultValue={link.expiresOn ?? ""} className={inputClass} />
      </Field>
      <Field label="Cost">
        <input name="cost" type="number" min="0" step="0.01" defaultValue={link.cost ?? ""} className={inputClass} />
      </Field>
      <Field label="Notes">
        <input name="notes" defaultValue={link.notes ?? ""} className={inputClass} />
      </Field>
      <div className="flex items-end">
        <button type="submit" className={buttonClass}>
          Save
        </button>
      </div>
    </form>
  );
}
