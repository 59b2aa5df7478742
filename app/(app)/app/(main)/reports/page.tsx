import { SharesPanel } from "@/components/shares/SharesPanel";
import { can } from "@/lib/auth/roles";
import { pageContext } from "@/lib/auth/page-context";
import { listShares } from "@/lib/shares/shares";
import { shareChoices, shareSubjects } from "@/lib/shares/choices";
import { ShareSchema } from "@/lib/schemas/shares";

// /app/reports — client-report links: admins create (the URL is shown once), revoke and email them on a schedule;
// everyone reads the list and who gets the emails.
export default async function ReportsPage() {
  const ctx = await pageContext("/app/reports");
  const shares = ShareSchema.array().parse((await listShares(ctx, { limit: 100 })).items);
  const [subjects, choices] = await Promise.all([shareSubjects(ctx, shares), shareChoices(ctx)]);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Client reports</h1>
        <p className="mt-1 max-w-prose text-sm text-slate-600 dark:text-slate-400">
          A report link shows a tag&apos;s or a page&apos;s tracked links (state, last check, 90-day history) or a saved
          audit to anyone who has it, without an account: never notes, costs or emails. Revoke it and the link stops
          working.
        </p>
        <p className="mt-1 max-w-prose text-sm text-slate-600 dark:text-slate-400">
          A tag&apos;s or a page&apos;s report can also be emailed every week or month, at an hour you choose (UTC), to
          up to ten addresses: each confirms first, every email says what changed and carries the report as a PDF and a
          one-click unsubscribe link.
        </p>
      </div>
      <SharesPanel
        initial={shares}
        subjects={subjects}
        choices={choices}
        canManage={can(ctx.role, { share: ["create", "schedule"] })}
        now={ctx.now().getTime()}
      />
    </div>
  );
}
