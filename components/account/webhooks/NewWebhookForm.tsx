"use client";

import { useState } from "react";
import { api } from "@/components/account/api";
import { ALERT_TYPE_LABELS } from "@/components/account/alert-types";
import { buttonClass, Field, inputClass, Notice } from "@/components/account/ui";
import { ALERT_TYPES, type AlertType } from "@/lib/schemas/alerts";
import { WEBHOOK_KIND_INFO, WEBHOOK_KINDS, type WebhookKind } from "@/lib/schemas/webhook-kinds";
import { WebhookWithSecretSchema, type WebhookWithSecret } from "@/lib/schemas/webhooks";

/**
 * URL, kind (the registry's list: lib/schemas/webhook-kinds.ts), a note and the alert types; the API checks
 * the URL (https, public, the kind's form) and answers in words shown as they are.
 */
export function NewWebhookForm({ onCreated }: { onCreated: (created: WebhookWithSecret) => void }) {
  const [url, setUrl] = useState("");
  const [kind, setKind] = useState<WebhookKind>("standard");
  const [description, setDescription] = useState("");
  const [types, setTypes] = useState<AlertType[]>([...ALERT_TYPES]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await api(
      "POST",
      "/api/account/webhooks",
      { url: url.trim(), kind, description, types },
      WebhookWithSecretSchema,
    );
    setBusy(false);
    // A URL of another form for the kind: the hint is the form it expects ("…looks like https://discord.com/api/webhooks/…").
    if (!result.ok)
      return setError(
        result.errorCode === "INVALID_URL" && result.hint ? `${result.error} ${result.hint}` : result.error,
      );
    setUrl("");
    setDescription("");
    onCreated(result.data);
  }

  const toggle = (type: AlertType, on: boolean) =>
    setTypes((current) => ALERT_TYPES.filter((t) => (t === type ? on : current.includes(t))));

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-3" aria-label="New webhook">
      <Field label="Endpoint URL">
        <input
          className={inputClass}
          type="url"
          inputMode="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder={WEBHOOK_KIND_INFO[kind].urlHint}
          required
          maxLength={2048}
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Format">
          <select className={inputClass} value={kind} onChange={(event) => setKind(event.target.value as WebhookKind)}>
            {WEBHOOK_KINDS.map((choice) => (
              <option key={choice} value={choice}>
                {WEBHOOK_KIND_INFO[choice].choice}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Note (optional)">
          <input
            className={inputClass}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            maxLength={200}
            placeholder="#seo-alerts"
          />
        </Field>
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Send</legend>
        <div className="mt-2 grid gap-1 sm:grid-cols-2">
          {ALERT_TYPE_LABELS.map(([type, label]) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={types.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {error && <Notice kind="error">{error}</Notice>}
      <button type="submit" className={buttonClass} disabled={busy}>
        Add webhook
      </button>
    </form>
  );
}
