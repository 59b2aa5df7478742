import { AcceptInvitation } from "@/components/account/AcceptInvitation";
import { pageContext } from "@/lib/account/page-context";

// /app/invitations/{id} — where an invitation email's link lands (signed-in; /sign-in brings people back here).
export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await pageContext(`/app/invitations/${encodeURIComponent(id)}`);
  return (
    <div className="max-w-lg space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Join a team</h1>
      <p className="text-slate-600 dark:text-slate-400">You are signed in as {ctx.user.email}. The invitation must be addressed to this email address.</p>
      <AcceptInvitation invitationId={id} />
    </div>
  );
}
