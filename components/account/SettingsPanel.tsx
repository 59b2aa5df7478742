"use client";

import { useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { pageOf, type Page } from "@/lib/schemas/common";
import { DeviceSessionSchema, OutboxItemSchema, type DeviceSession, type OutboxItem } from "@/lib/schemas/settings";
import { api, type ApiResult } from "./api";
import { OUTBOX_PATH, SESSIONS_PATH, type Answer } from "./answers";
import { LocalTime } from "./LocalTime";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "./ui";
import { mutate, useApi } from "./use-api";
import { useHydrated } from "./useHydrated";

const SessionListSchema = DeviceSessionSchema.array();
const OutboxListSchema = pageOf(OutboxItemSchema);

/**
 * Profile, password, signed-in devices, email delivery and (owners) the outbox. The server hands over the
 * devices and the outbox; an action that signs devices out reads the devices again.
 */
export function SettingsPanel({
  name,
  email,
  isOwner,
  mailConfigured,
  currentSessionId,
  initial,
}: {
  name: string;
  email: string;
  isOwner: boolean;
  mailConfigured: boolean;
  currentSessionId: string;
  /** The outbox only for owners: nobody else may read it. */
  initial: { sessions: Answer<DeviceSession[]>; outbox?: Answer<Page<OutboxItem>> };
}) {
  const hydrated = useHydrated();
  const sessions = useApi(SESSIONS_PATH, SessionListSchema, { initial: initial.sessions }).data ?? [];
  const outbox = useApi(isOwner ? OUTBOX_PATH : null, OutboxListSchema, { initial: initial.outbox }).data?.items ?? [];
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);

  /** Runs an action, then reads again what it changed (the devices, or nothing). */
  async function run(action: Promise<ApiResult<unknown>>, done: string, changed: string[] = []) {
    setError(null);
    setInfo(null);
    const result = await mutate(action, changed);
    if (!result.ok) setError(result.error);
    else setInfo(done);
  }

  return (
    <div className="space-y-6">
      {error && <Notice kind="error">{error}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
      <Panel id="profile" title="Profile">
        <form
          method="post"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void run(
              api("POST", "/api/auth/update-user", {
                name: String(new FormData(event.currentTarget).get("name") ?? ""),
              }),
              "Name saved.",
            );
          }}
        >
          <div className="min-w-0 flex-1 basis-64">
            <Field label="Name">
              <input name="name" defaultValue={name} required maxLength={100} className={inputClass} />
            </Field>
          </div>
          <button type="submit" className={buttonClass}>
            Save
          </button>
        </form>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Email: {email}</p>
      </Panel>

      <Panel id="password" title="Password">
        <form
          method="post"
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            void run(
              api("POST", "/api/auth/change-password", {
                currentPassword: String(data.get("current") ?? ""),
                newPassword: String(data.get("next") ?? ""),
                revokeOtherSessions: true,
              }),
              "Password changed; your other devices are signed out.",
              [SESSIONS_PATH],
            );
            event.currentTarget.reset();
          }}
        >
          <Field label="Current password">
            <input name="current" type="password" required autoComplete="current-password" className={inputClass} />
          </Field>
          <Field label="New password (at least 8 characters)">
            <input
              name="next"
              type="password"
              required
              minLength={8}
              maxLength={128}
              autoComplete="new-password"
              className={inputClass}
            />
          </Field>
          <div>
            <button type="submit" className={buttonClass}>
              Change password
            </button>
          </div>
        </form>
      </Panel>

      <Panel
        id="sessions"
        title="Signed-in devices"
        aside={
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={!hydrated}
            onClick={() =>
              void run(api("POST", "/api/auth/revoke-other-sessions", {}), "Other devices are signed out.", [
                SESSIONS_PATH,
              ])
            }
          >
            Sign out other devices
          </button>
        }
      >
        <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <span className="min-w-0 wrap-anywhere">
                {s.userAgent ?? "Unknown device"} · {s.ipAddress ?? "unknown address"} · since{" "}
                <LocalTime iso={s.createdAt} />
                {s.id === currentSessionId && <strong className="ml-2">(this device)</strong>}
              </span>
              {s.id !== currentSessionId && (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={!hydrated}
                  onClick={() =>
                    void run(api("POST", "/api/auth/revoke-session", { token: s.token }), "Device signed out.", [
                      SESSIONS_PATH,
                    ])
                  }
                >
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      </Panel>

      <Panel id="email" title="Email delivery">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {mailConfigured
            ? "Emails (sign-in links, password resets, invitations) are delivered by SMTP. Failed deliveries are retried with backoff."
            : "This server has no SMTP_URL: emails are not delivered. They wait in the outbox below, where owners can read them (for example a teammate's invitation link)."}
        </p>
        {isOwner && (
          <div className="mt-4">
            <h3 className="mb-2 text-sm font-semibold">Outbox</h3>
            {outbox.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">No emails yet.</p>
            ) : (
              <ul className="space-y-2 text-sm">
                {outbox.map((row) => (
                  <li
                    key={row.id}
                    className="rounded-md p-3 ring-1 ring-slate-200 dark:ring-slate-800"
                    data-testid="outbox-row"
                  >
                    <div className="flex flex-wrap justify-between gap-2">
                      <strong>{row.subject}</strong>
                      <span>
                        {row.status} · {row.attempts} attempt{row.attempts === 1 ? "" : "s"}
                      </span>
                    </div>
                    <div className="text-slate-600 dark:text-slate-400">
                      to {row.recipient} · <LocalTime iso={row.createdAt} />
                      {row.lastError && <span className="text-red-700 dark:text-red-300"> · {row.lastError}</span>}
                    </div>
                    <details className="mt-1">
                      <summary className="cursor-pointer text-blue-700 dark:text-blue-300">Show message</summary>
                      <pre className="mt-1 whitespace-pre-wrap break-all text-xs">{row.text}</pre>
                    </details>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </Panel>
    </div>
  );
}
