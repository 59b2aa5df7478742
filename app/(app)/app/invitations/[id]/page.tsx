import type { Metadata } from "next";
import { AcceptInvitation } from "@/components/account/AcceptInvitation";
import { AuthCard } from "@/components/account/ui";
import { SiteHeader } from "@/components/site/SiteChrome";
import { pageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "Join a team on LinkLens" };

// /app/invitations/{id}?token=… — where an invitation email's link lands. Outside the /app frame so that a
// visitor who is not signed in is sent to /sign-in with this page, token included, as `next`: the token
// proves the mailbox, so someone who signs up on the way can accept without confirming the address first.
export default async function InvitationPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const { token } = await searchParams;
  const proof = typeof token === "string" && token !== "" ? token : undefined;
  // Joining another team is the caller's own membership: served even where the active team requires two-factor sign-in.
  const ctx = await pageContext(
    `/app/invitations/${encodeURIComponent(id)}${proof ? `?token=${encodeURIComponent(proof)}` : ""}`,
    { twoFactorExempt: true },
  );
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <AuthCard title="Join a team">
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          You are signed in as {ctx.user.email}. The invitation must be addressed to this email address.
        </p>
        <AcceptInvitation invitationId={id} token={proof} />
      </AuthCard>
    </div>
  );
}
