import { answerOf, INVITATIONS_PATH, MEMBERS_PATH } from "@/components/account/answers";
import { TeamPanel } from "@/components/account/TeamPanel";
import { listInvitations, listMembers } from "@/lib/account/team";
import { pageContext } from "@/lib/auth/page-context";
import { pageOf } from "@/lib/schemas/common";
import { InvitationSchema, MemberSchema } from "@/lib/schemas/team";

// /app/team — members, roles and invitations of the active team.
export default async function TeamPage() {
  const ctx = await pageContext("/app/team");
  // The first page of each, as GET /api/account/members and /invitations answer without ?limit=.
  const [members, invitations] = await Promise.all([
    listMembers(ctx, { limit: 50 }),
    listInvitations(ctx, { limit: 50 }),
  ]);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Team · {ctx.organization.name}</h1>
      <TeamPanel
        role={ctx.role}
        userId={ctx.user.id}
        security={{ requireTwoFactor: ctx.organization.requireTwoFactor, ownTwoFactor: ctx.user.twoFactorEnabled }}
        initial={{
          members: answerOf(MEMBERS_PATH, pageOf(MemberSchema), members),
          invitations: answerOf(INVITATIONS_PATH, pageOf(InvitationSchema), invitations),
        }}
      />
    </div>
  );
}
