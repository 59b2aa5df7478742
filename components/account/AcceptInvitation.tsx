"use client";

import { useState } from "react";
import { AcceptedInvitationSchema } from "@/lib/schemas/team";
import { api, loadPage } from "./api";
import { useHydrated } from "./useHydrated";
import { buttonClass, Notice } from "./ui";

/** Accepts an invitation for the signed-in user and switches to the team; `token` (the emailed link's) proves the address. */
export function AcceptInvitation({ invitationId, token }: { invitationId: string; token?: string }) {
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function accept() {
    setBusy(true);
    const result = await api(
      "POST",
      "/api/auth/organization/accept-invitation",
      token ? { invitationId, token } : { invitationId },
      AcceptedInvitationSchema,
    );
    if (!result.ok) {
      setBusy(false);
      return setError(
        result.errorCode === "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION"
          ? "Confirm your email address first: open this page from the link in the invitation email, or follow the link in the email we sent when you signed up, then come back to this page."
          : result.error,
      );
    }
    const organizationId = result.data.member?.organizationId ?? result.data.invitation?.organizationId;
    if (organizationId) await api("PUT", "/api/account/active-organization", { organizationId });
    loadPage("/app/team");
  }

  return (
    <div className="space-y-3">
      {error && <Notice kind="error">{error}</Notice>}
      <button type="button" onClick={() => void accept()} disabled={!hydrated || busy} className={buttonClass}>
        Accept invitation
      </button>
    </div>
  );
}
