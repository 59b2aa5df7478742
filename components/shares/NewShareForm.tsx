"use client";

import { useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { api } from "@/components/account/api";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "@/components/account/ui";
import { CreatedShareSchema, type CreatedShare, type ShareChoices, type ShareScope } from "@/lib/schemas/shares";

const EXPIRIES = [
  { days: 0, label: "Never" },
  { days: 7, label: "In 7 days" },
  { days: 30, label: "In 30 days" },
  { days: 90, label: "In 90 days" },
  { days: 365, label: "In a year" },
];

const SCOPES: Array<{ value: ShareScope; label: string }> = [
  { value: "tag", label: "Every tracked link of a tag" },
  { value: "monitor", label: "The tracked links of one page" },
  { value: "audit", label: "A saved audit" },
];

/** The expiry `days` from now (ISO), or null for a link that never expires. */
function expiryIn(days: number): string | null {
  return days > 0 ? new Date(Date.now() + days * 86_400_000).toISOString() : null;
}

/** Admins: a new report link. Its URL is shown here once (the server keeps only a hash), with a copy button. */
export function NewShareForm({
  choices,
  onCreated,
}: {
  choices: ShareChoices;
  onCreated: (share: CreatedShare, subject: string) => void;
}) {
  const [scope, setScope] = useState<ShareScope>(
    choices.tags.length > 0 ? "tag" : choices.monitors.length > 0 ? "monitor" : "audit",
  );
  const [created, setCreated] = useState<CreatedShare | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const options =
    scope === "tag"
      ? choices.tags.map((tag) => ({ value: tag, label: tag }))
      : scope === "monitor"
        ? choices.monitors.map((page) => ({ value: page.id, label: page.url }))
        : choices.audits.map((saved) => ({
            value: saved.id,
            label: `${saved.title ?? saved.url} (${new Date(saved.createdAt).toLocaleDateString()})`,
          }));

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const subject = String(data.get("subject") ?? "");
    const days = Number(data.get("expires") ?? 0);
    const field = scope === "tag" ? "tag" : scope === "monitor" ? "monitorId" : "auditId";
    setBusy(true);
    setError(null);
    setCopied(false);
    const result = await api(
      "POST",
      "/api/account/shares",
      { title: String(data.get("title") ?? ""), scope, [field]: subject, expiresAt: expiryIn(days) },
      CreatedShareSchema,
    );
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setCreated(result.data);
    const label = options.find((option) => option.value === subject)?.label ?? subject;
    onCreated(
      result.data,
      scope === "tag"
        ? `Tag “${label}”`
        : scope === "monitor"
          ? `Page ${label}`
          : `Audit of ${choices.audits.find((saved) => saved.id === subject)?.url ?? label}`,
    );
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setError("Could not copy: select the link and copy it by hand.");
    }
  }

  return (
    <Panel id="new-share" title="New report link">
      <form className="grid gap-3 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
        <Field label="Title (the client sees it)">
          <input
            name="title"
            required
            maxLength={200}
            className={inputClass}
            placeholder="Acme: guest posts, spring 2026"
          />
        </Field>
        <Field label="Shows">
          <select value={scope} onChange={(event) => setScope(event.target.value as ShareScope)} className={inputClass}>
            {SCOPES.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label={scope === "tag" ? "Tag" : scope === "monitor" ? "Page" : "Audit"}>
          <select key={scope} name="subject" required className={inputClass} disabled={options.length === 0}>
            {options.length === 0 && (
              <option value="">
                {scope === "tag"
                  ? "No monitor has a tag yet"
                  : scope === "monitor"
                    ? "No page is monitored yet"
                    : "No saved audit yet"}
              </option>
            )}
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Link expires">
          <select name="expires" defaultValue="0" className={inputClass}>
            {EXPIRIES.map((item) => (
              <option key={item.days} value={item.days}>
                {item.label}
              </option>
            ))}
          </select>
        </Field>
        <div className="sm:col-span-2">
          <button type="submit" className={buttonClass} disabled={busy || options.length === 0}>
            {busy ? "Creating…" : "Create link"}
          </button>
        </div>
      </form>
      {error && (
        <div className="mt-3">
          <Notice kind="error">{error}</Notice>
        </div>
      )}
      {created && (
        <div
          className="mt-4 space-y-2 rounded-md bg-emerald-50 p-3 ring-1 ring-emerald-200 dark:bg-emerald-950/40 dark:ring-emerald-900"
          data-testid="created-share"
        >
          <p className="text-sm font-medium text-emerald-900 dark:text-emerald-100">
            Link for “{created.title}” created. Copy it now: it is not shown again.
          </p>
          <div className="flex flex-wrap gap-2">
            <input
              readOnly
              value={created.url}
              aria-label="Report link"
              className={`${inputClass} mt-0 min-w-0 flex-1 basis-64 font-mono`}
              onFocus={(event) => event.currentTarget.select()}
            />
            <button type="button" className={secondaryButtonClass} onClick={() => void copy(created.url)}>
              {copied ? "Copied" : "Copy link"}
            </button>
          </div>
        </div>
      )}
    </Panel>
  );
}
