import Link from "next/link";
import { Notice } from "@/components/account/ui";
import { Panel } from "@/components/analyzer/Panel";
import { AuditsTable } from "@/components/audits/AuditsTable";
import { NewAuditForm } from "@/components/audits/NewAuditForm";
import { listAudits } from "@/lib/account/audits";
import { pageContext } from "@/lib/auth/page-context";
import { ApiError } from "@/lib/errors";

// /app/audits — run a new audit (members and up) and the team's saved audits, newest first.
export default async function AuditsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await pageContext("/app/audits");
  const params = await searchParams;
  const cursor = typeof params.cursor === "string" && params.cursor ? params.cursor : undefined;
  const list = await listAudits(ctx, { limit: 50, cursor }).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === "INVALID_REQUEST") return null;
    throw error;
  });
  const canEdit = ctx.role !== "viewer";
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Audits</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">
          Saved link audits of {ctx.organization.name}, classified with your team&apos;s domain groups.
        </p>
      </div>
      {canEdit && (
        <section
          aria-label="New audit"
          className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900/60 dark:ring-slate-800"
        >
          <h2 className="mb-3 text-base font-semibold tracking-tight">New audit</h2>
          <NewAuditForm />
        </section>
      )}
      <Panel id="saved-audits" title="Saved audits">
        {!list ? (
          <Notice kind="error">That page link is not valid any more.</Notice>
        ) : list.items.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {cursor
              ? "No older audits."
              : canEdit
                ? "No saved audits yet: audit a URL or pasted HTML above."
                : "No saved audits yet. Members of your team run them here."}
          </p>
        ) : (
          <AuditsTable items={list.items} />
        )}
        {list?.nextCursor && (
          <Link
            href={`/app/audits?cursor=${encodeURIComponent(list.nextCursor)}`}
            className="mt-3 inline-block text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
          >
            Older audits →
          </Link>
        )}
      </Panel>
    </div>
  );
}
