"use client";

import Link from "next/link";
import { useState } from "react";
import { api } from "./api";
import { useHydrated } from "./useHydrated";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "./ui";

type Kind = "totp" | "backup";

const PATHS: Record<Kind, string> = {
  totp: "/api/auth/two-factor/verify-totp",
  backup: "/api/auth/two-factor/verify-backup-code",
};

/** Better Auth's answer when the pending sign-in is gone (10 minutes passed, or too many tries on it). */
const START_AGAIN = new Set(["INVALID_TWO_FACTOR_COOKIE", "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE"]);

/**
 * The second step of sign-in: a code from the authenticator app, or a backup code, and whether to trust
 * this device for 30 days. The first step (password or emailed link) left a pending sign-in in a cookie;
 * a right code turns it into the session, then the page goes on to `next`.
 */
export function SecondStepForm({ next }: { next: string }) {
  const hydrated = useHydrated();
  const [kind, setKind] = useState<Kind>("totp");
  const [error, setError] = useState<{ message: string; restart: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const raw = String(form.get("code") ?? "").trim();
    setBusy(true);
    setError(null);
    const result = await api("POST", PATHS[kind], {
      code: kind === "totp" ? raw.replace(/\s/g, "") : raw,
      trustDevice: form.get("trust") === "on",
    });
    setBusy(false);
    if (result.ok) return window.location.assign(next);
    const restart = START_AGAIN.has(result.errorCode);
    setError({
      restart,
      message: restart
        ? "This sign-in has expired: sign in again."
        : result.errorCode === "INVALID_CODE" || result.errorCode === "INVALID_BACKUP_CODE"
          ? `That ${kind === "totp" ? "code" : "backup code"} is not right.`
          : result.error,
    });
  }

  return (
    <form method="post" onSubmit={submit} className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {kind === "totp"
          ? "Enter the 6-digit code your authenticator app shows for LinkLens."
          : "Enter one of your backup codes. Each works once."}
      </p>
      <Field label={kind === "totp" ? "Code" : "Backup code"}>
        <input
          key={kind}
          name="code"
          required
          autoFocus
          autoComplete="one-time-code"
          spellCheck={false}
          {...(kind === "totp"
            ? { inputMode: "numeric" as const, pattern: "[0-9 ]{6,7}", maxLength: 7 }
            : { maxLength: 32 })}
          className={`${inputClass} font-mono tracking-widest`}
        />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
        <input name="trust" type="checkbox" className="h-4 w-4" />
        Trust this device for 30 days (until you sign out)
      </label>
      {error && (
        <Notice kind="error">
          {error.message}{" "}
          {error.restart && (
            <Link href={`/sign-in?next=${encodeURIComponent(next)}`} className="font-medium underline">
              Sign in
            </Link>
          )}
        </Notice>
      )}
      <button type="submit" disabled={!hydrated || busy} className={`${buttonClass} w-full`}>
        Verify
      </button>
      <button
        type="button"
        onClick={() => {
          setKind(kind === "totp" ? "backup" : "totp");
          setError(null);
        }}
        className={`${secondaryButtonClass} w-full`}
      >
        {kind === "totp" ? "Use a backup code instead" : "Use a code from the app instead"}
      </button>
    </form>
  );
}
