import Link from "next/link";
import { notFound } from "next/navigation";
import { answerOf, auditsOfPagePath } from "@/components/account/answers";
import { AuditDetail } from "@/components/audits/AuditDetail";
import { getAudit, listAudits } from "@/lib/account/audits";
import { pageContext } from "@/lib/auth/page-context";
import { can } from "@/lib/auth/roles";
import { ApiError } from "@/lib/errors";
import { AuditSchema, AuditSummarySchema } from "@/lib/schemas/audits";
import { pageOf } from "@/lib/schemas/common";

// /app/audits/{id} — one saved audit in the landing page's result view, with exports, re-run, delete and compare.
export default async function AuditPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await pageContext(`/app/audits/${encodeURIComponent(id)}`);
  const audit = AuditSchema.parse(
    await getAudit(ctx, id, { snapshot: true }).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === "NOT_FOUND") notFound();
      throw error;
    }),
  );
  // The page's other audits, for "Compare with…", as GET /api/account/audits?limit=100&url= lists them.
  const samePage = answerOf(
    auditsOfPagePath(audit.url),
    pageOf(AuditSummarySchema),
    await listAudits(ctx, { limit: 100, url: audit.url }),
  );
  return (
    <div className="space-y-4">
      <Link href="/app/audits" className="text-sm font-medium text-blue-700 hover:underline dark:text-blue-300">
        ← All audits
      </Link>
      <AuditDetail
        audit={audit}
        canEdit={can(ctx.role, { savedAudit: ["export", "create", "delete"] })}
        samePage={samePage}
      />
    </div>
  );
}
