import { TeamPanel } from "@/components/account/TeamPanel";
import { pageContext } from "@/lib/auth/page-context";

// /app/team — members, roles and invitations of the active team.
export default async function TeamPage() {
  const ctx = await pageContext("/app/team");
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Team · {ctx.organization.name}</h1>
      <TeamPanel role={ctx.role} userId={ctx.user.id} />
    </div>
  );
}
