"use client";

import Link from "next/link";
import { useState } from "react";
import { SignInAnswerSchema } from "@/lib/schemas/settings";
import { api } from "./api";
import { useHydrated } from "./useHydrated";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "./ui";

type Mode = "password" | "magic" | "reset";

/** Sign in with a password or an emailed link; "forgot password" sends a reset link. */
export function SignInForm({ next, mailConfigured }: { next: string; mailConfigured: boolean }) {
  const hydrated = useHydrated();
  const [mode, setMode] = useState<Mode>("password");
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sentNote = mailConfigured
    ? "Check your inbox."
    : "Email delivery is not configured on this server: the owner of your team can read the email under Settings → Email.";

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    setBusy(true);
    setError(null);
    setInfo(null);
    if (mode === "password") {
      const result = await api(
        "POST",
        "/api/auth/sign-in/email",
        { email, password: String(form.get("password") ?? "") },
        SignInAnswerSchema,
      );
      setBusy(false);
      if (!result.ok) return setError(result.error);
      // Two-factor sign-in on: no session yet, the code comes next.
      window.location.assign(
        result.data.twoFactorRedirect ? `/sign-in/two-factor?next=${encodeURIComponent(next)}` : next,
      );
      return;
    }
    const result =
      mode === "magic"
        ? await api("POST", "/api/auth/sign-in/magic-link", { email, callbackURL: next, errorCallbackURL: "/sign-in" })
        : await api("POST", "/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setInfo(
      mode === "magic"
        ? `If ${email} can sign in, a sign-in link is on its way. ${sentNote}`
        : `If ${email} has an account, a reset link is on its way. ${sentNote}`,
    );
  }

  const tab = (value: Mode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => setMode(value)}
      className={`${secondaryButtonClass} ${mode === value ? "bg-slate-100 dark:bg-slate-800" : ""}`}
    >
      {label}
    </button>
  );

  return (
    <form method="post" onSubmit={submit} className="space-y-4">
      <div className="flex gap-2" role="group" aria-label="How to sign in">
        {tab("password", "Password")}
        {tab("magic", "Email me a link")}
      </div>
      <Field label="Email">
        <input name="email" type="email" required autoComplete="email" className={inputClass} />
      </Field>
      {mode === "password" && (
        <Field label="Password">
          <input name="password" type="password" required autoComplete="current-password" className={inputClass} />
        </Field>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
      <button type="submit" disabled={!hydrated || busy} className={`${buttonClass} w-full`}>
        {mode === "password" ? "Sign in" : mode === "magic" ? "Send sign-in link" : "Send reset link"}
      </button>
      <p className="flex justify-between text-sm text-slate-600 dark:text-slate-400">
        <button
          type="button"
          onClick={() => setMode("reset")}
          className="font-medium text-blue-700 hover:underline dark:text-blue-300"
        >
          Forgot password?
        </button>
        <Link
          href={`/sign-up?next=${encodeURIComponent(next)}`}
          className="font-medium text-blue-700 hover:underline dark:text-blue-300"
        >
          Create an account
        </Link>
      </p>
    </form>
  );
}
