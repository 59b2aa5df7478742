"use client";

import { useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { NotificationPreferencesSchema, type AlertType, type NotificationPreferences } from "@/lib/schemas/alerts";
import { ALERT_TYPE_LABELS } from "./alert-types";
import { api } from "./api";
import { buttonClass, Field, inputClass, Notice } from "./ui";
import { useHydrated } from "./useHydrated";

export type NotificationPrefs = NotificationPreferences;

const MODES: ReadonlyArray<[NotificationPrefs["email"], string]> = [
  ["immediate", "Immediately (one email per check that changed something)"],
  ["daily", "Daily digest"],
  ["weekly", "Weekly digest (Mondays)"],
  ["off", "No emails (alerts stay in the app)"],
];

/** Settings → Notifications: how and about what this user is emailed in the active team. */
export function NotificationSettings({ initial }: { initial: NotificationPrefs }) {
  const hydrated = useHydrated();
  const [prefs, setPrefs] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "info"; text: string } | null>(null);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const result = await api("PUT", "/api/account/notifications", prefs, NotificationPreferencesSchema);
    setBusy(false);
    if (result.ok) {
      setPrefs(result.data);
      setMessage({ kind: "info", text: "Notification settings saved." });
    } else setMessage({ kind: "error", text: result.error });
  }

  const toggle = (type: AlertType, on: boolean) =>
    setPrefs((current) => ({
      ...current,
      types: on ? [...current.types, type] : current.types.filter((t) => t !== type),
    }));
  const digest = prefs.email === "daily" || prefs.email === "weekly";

  return (
    <Panel id="notifications" title="Notifications">
      <form onSubmit={save} className="space-y-4" aria-describedby="notifications-help">
        <p id="notifications-help" className="text-sm text-slate-600 dark:text-slate-400">
          Alert emails about this team&apos;s monitored pages, for you. Every alert is also listed under Alerts.
        </p>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Email me</legend>
          <div className="mt-2 space-y-1">
            {MODES.map(([mode, label]) => (
              <label key={mode} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="email"
                  value={mode}
                  checked={prefs.email === mode}
                  onChange={() => setPrefs({ ...prefs, email: mode })}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {digest && (
          <Field label="Digest hour (UTC)">
            <select
              className={inputClass}
              value={prefs.digestHourUtc}
              onChange={(e) => setPrefs({ ...prefs, digestHourUtc: Number(e.target.value) })}
            >
              {Array.from({ length: 24 }, (_, hour) => (
                <option key={hour} value={hour}>
                  {String(hour).padStart(2, "0")}:00 UTC
                </option>
              ))}
            </select>
          </Field>
        )}
        <fieldset disabled={prefs.email === "off"}>
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">About</legend>
          <div className="mt-2 grid gap-1 sm:grid-cols-2">
            {ALERT_TYPE_LABELS.map(([type, label]) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="types"
                  value={type}
                  checked={prefs.types.includes(type)}
                  onChange={(e) => toggle(type, e.target.checked)}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {message && <Notice kind={message.kind}>{message.text}</Notice>}
        <button type="submit" className={buttonClass} disabled={!hydrated || busy}>
          Save notification settings
        </button>
      </form>
    </Panel>
  );
}
