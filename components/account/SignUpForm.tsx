"use client";

import Link from "next/link";
import { useState } from "react";
import { api } from "./api";
import { useHydrated } from "./useHydrated";
import { buttonClass, Field, inputClass, Notice } from "./ui";

/** Email + password sign-up; on success the new owner lands in /app (or the page they came for). */
export function SignUpForm({ next }: { next: string }) {
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await api("POST", "/api/auth/sign-up/email", {
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    window.location.assign(next);
  }

  return (
    <form method="post" onSubmit={submit} className="space-y-4">
      <Field label="Name">
        <input name="name" required maxLength={100} autoComplete="name" className={inputClass} />
      </Field>
      <Field label="Email">
        <input name="email" type="email" required autoComplete="email" className={inputClass} />
      </Field>
      <Field label="Password (at least 8 characters)">
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
      <button type="submit" disabled={!hydrated || busy} className={`${buttonClass} w-full`}>
        {busy ? "Creating your account…" : "Create account"}
      </button>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Already have an account?{" "}
        <Link
          href={`/sign-in?next=${encodeURIComponent(next)}`}
          className="font-medium text-blue-700 hover:underline dark:text-blue-300"
        >
          Sign in
        </Link>
      </p>
    </form>
  );
}
