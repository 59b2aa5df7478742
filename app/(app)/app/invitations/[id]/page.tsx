import type { Metadata } from "next";
import { AcceptInvitation } from "@/components/account/AcceptInvitation";
import { AuthCard } from "@/components/account/ui";
import { SiteHeader } from "@/components/site/SiteChrome";
import { pageContext } from "@/lib/account/page-context";

export const metadata: Metadata = { title: "Join a team on LinkLens" };

// /app/invitations/{id} — where an invitation email's link lands. Outside the /app frame so that a visitor
// who is not signed in is sent to /sign-in with this page as `next`.
export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await pageContext(`/app/invitations/${encodeURIComponent(id)}`);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <AuthCard title="Join a team">
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">You are signed in as {ctx.user.email}. The invitation must be addressed to this email address.</p>
        <AcceptInvitation invitationId={id} />
      </AuthCard>
    </div>
  );
}
