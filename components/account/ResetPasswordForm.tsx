"use client";

import { useState } from "react";
import { api } from "./api";
import { useHydrated } from "./useHydrated";
import { buttonClass, Field, inputClass, Notice } from "./ui";

/** The page a reset email's link lands on (?token=…): choose a new password. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(
    token ? null : "This link has no reset token. Ask for a new one on the sign-in page.",
  );
  const [done, setDone] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await api("POST", "/api/auth/reset-password", {
      token,
      newPassword: String(form.get("password") ?? ""),
    });
    if (!result.ok) return setError(result.error);
    setDone(true);
  }

  if (done)
    return (
      <Notice kind="info">
        Your password is changed and your other sessions are signed out.{" "}
        <a href="/sign-in" className="font-medium underline">
          Sign in
        </a>
        .
      </Notice>
    );
  return (
    <form method="post" onSubmit={submit} className="space-y-4">
      <Field label="New password (at least 8 characters)">
        <input
          name="password"
          type="password"
          required
          minLength={8}
          maxLength={128}
          autoComplete="new-password"
          className={inputClass}
        />
      </Field>
      {error && <Notice kind="error">{error}</Notice>}
      <button type="submit" disabled={!hydrated || !token} className={`${buttonClass} w-full`}>
        Set new password
      </button>
    </form>
  );
}
