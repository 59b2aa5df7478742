"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { api } from "@/components/account/api";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "@/components/account/ui";
import { Panel } from "@/components/analyzer/Panel";
import { DomainGroupSchema, type DomainGroup } from "@/lib/schemas/domain-groups";

/** One hostname a line (commas and spaces also separate): what people paste from a spreadsheet or a note. */
function hostnames(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Name + hostnames; the API validates and answers in words that name the problem (shown as they are). */
function GroupForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: DomainGroup;
  submitLabel: string;
  onSubmit: (input: { name: string; domains: string[] }) => Promise<string | null>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [domains, setDomains] = useState(initial?.domains.join("\n") ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const helpId = useId();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const problem = await onSubmit({ name, domains: hostnames(domains) });
    setBusy(false);
    if (problem) setError(problem);
    else if (!initial) {
      setName("");
      setDomains("");
    }
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="space-y-3"
      aria-label={initial ? `Edit ${initial.name}` : "New domain group"}
    >
      <Field label="Group name">
        <input className={inputClass} value={name} onChange={(event) => setName(event.target.value)} maxLength={100} />
      </Field>
      <Field label="Domains">
        <textarea
          className={`${inputClass} min-h-24 font-mono`}
          value={domains}
          onChange={(event) => setDomains(event.target.value)}
          aria-describedby={helpId}
          spellCheck={false}
        />
      </Field>
      <p id={helpId} className="text-xs text-slate-600 dark:text-slate-400">
        One hostname a line, such as example.com or blog.example.org. A hostname stands for its whole site:
        blog.example.org puts every example.org page in the group.
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass} disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className={secondaryButtonClass} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function GroupCard({
  group,
  canEdit,
  onChanged,
}: {
  group: DomainGroup;
  canEdit: boolean;
  onChanged: (message: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(input: { name: string; domains: string[] }) {
    const result = await api(
      "PATCH",
      `/api/account/domain-groups/${encodeURIComponent(group.id)}`,
      input,
      DomainGroupSchema,
    );
    if (!result.ok) return result.error;
    setEditing(false);
    onChanged(`Saved ${result.data.name}.`);
    return null;
  }

  async function remove() {
    const result = await api("DELETE", `/api/account/domain-groups/${encodeURIComponent(group.id)}`);
    if (!result.ok) setError(result.error);
    else onChanged(`Deleted ${group.name}.`);
  }

  if (editing) {
    return (
      <li className="py-3">
        <GroupForm initial={group} submitLabel="Save group" onSubmit={save} onCancel={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li className="py-3" data-testid={`group-${group.name}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{group.name}</h3>
        {canEdit && (
          <span className="flex gap-2">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setEditing(true)}
              aria-label={`Edit ${group.name}`}
            >
              Edit
            </button>
            {confirming ? (
              <span className="inline-flex items-center gap-2 text-sm">
                Delete {group.name}?
                <button
                  type="button"
                  className="font-semibold text-red-800 underline dark:text-red-300"
                  onClick={() => void remove()}
                >
                  Yes, delete
                </button>
                <button type="button" className="underline" onClick={() => setConfirming(false)}>
                  Keep
                </button>
              </span>
            ) : (
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => setConfirming(true)}
                aria-label={`Delete ${group.name}`}
              >
                Delete
              </button>
            )}
          </span>
        )}
      </div>
      <ul className="mt-1 flex flex-wrap gap-1.5">
        {group.domains.map((domain) => (
          <li key={domain} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs dark:bg-slate-800">
            {domain}
          </li>
        ))}
      </ul>
      {error && <Notice kind="error">{error}</Notice>}
    </li>
  );
}

/**
 * The team's domain groups: sister sites whose links to each other count as internal in the team's
 * audits and monitor checks. Members and up create, edit and delete; viewers read.
 */
export function GroupsPanel({ groups, canEdit }: { groups: DomainGroup[]; canEdit: boolean }) {
  const router = useRouter();
  const [info, setInfo] = useState<string | null>(null);

  function changed(message: string) {
    setInfo(message);
    router.refresh();
  }

  async function create(input: { name: string; domains: string[] }) {
    setInfo(null);
    const result = await api("POST", "/api/account/domain-groups", input, DomainGroupSchema);
    if (!result.ok) return result.error;
    changed(`Created ${result.data.name}.`);
    return null;
  }

  return (
    <div className="space-y-6">
      {info && <Notice kind="info">{info}</Notice>}
      {canEdit && (
        <Panel id="new-group" title="New domain group">
          <GroupForm submitLabel="Create group" onSubmit={create} />
        </Panel>
      )}
      <Panel id="group-list" title={`Groups (${groups.length})`}>
        {groups.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No groups yet.{" "}
            {canEdit
              ? "Group the sites you run together (a shop, its blog, a sister brand) so links between them count as internal in your audits."
              : "Members of your team can group sister sites here."}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {groups.map((group) => (
              <GroupCard key={`${group.id}-${group.updatedAt}`} group={group} canEdit={canEdit} onChanged={changed} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
