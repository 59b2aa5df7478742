import { GroupsPanel } from "@/components/audits/GroupsPanel";
import { allGroups } from "@/lib/account/domain-groups";
import { pageContext } from "@/lib/auth/page-context";
import { can } from "@/lib/auth/roles";
import { DomainGroupSchema } from "@/lib/schemas/domain-groups";

// /app/groups — the team's domain groups: create, edit and delete (members and up), read (viewers).
export default async function GroupsPage() {
  const ctx = await pageContext("/app/groups");
  const groups = DomainGroupSchema.array().parse(await allGroups(ctx));
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Domain groups</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">
          Sites of one group link to each other as internal links in your team&apos;s audits and monitor checks; each
          such link shows its group&apos;s name.
        </p>
      </div>
      <GroupsPanel groups={groups} canEdit={can(ctx.role, { domainGroup: ["create", "update", "delete"] })} />
    </div>
  );
}
