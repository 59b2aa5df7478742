"use client";

import { useState } from "react";
import type { Me } from "@/lib/schemas/team";
import { api, loadPage } from "./api";
import { secondaryButtonClass } from "./ui";
import { useHydrated } from "./useHydrated";

export type { Me };

/** The account menu: who is signed in, the active team (switchable), sign out. */
export function AccountMenu({ me }: { me: Me }) {
  const [error, setError] = useState<string | null>(null);
  // Until React has hydrated, a click or a change here would do nothing: the controls say so.
  const hydrated = useHydrated();

  async function switchTo(organizationId: string) {
    const result = await api("PUT", "/api/account/active-organization", { organizationId });
    if (!result.ok) return setError(result.error);
    window.location.reload();
  }

  async function signOut() {
    await api("POST", "/api/auth/sign-out", {});
    loadPage("/");
  }

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2 text-sm">
      <label className="flex items-center gap-2">
        <span className="sr-only">Active team</span>
        <select
          aria-label="Active team"
          value={me.organization.id}
          disabled={!hydrated}
          onChange={(event) => void switchTo(event.target.value)}
          className="max-w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-700 dark:bg-slate-900"
        >
          {me.organizations.map((org) => (
            <option key={org.id} value={org.id}>
              {org.name} ({org.role})
            </option>
          ))}
        </select>
      </label>
      <span
        className="max-w-full truncate text-slate-600 dark:text-slate-400"
        title={me.user.email}
        data-testid="signed-in-as"
      >
        {me.user.email}
      </span>
      <button type="button" disabled={!hydrated} onClick={() => void signOut()} className={secondaryButtonClass}>
        Sign out
      </button>
      {error && (
        <span role="alert" className="text-red-700 dark:text-red-300">
          {error}
        </span>
      )}
    </div>
  );
}
