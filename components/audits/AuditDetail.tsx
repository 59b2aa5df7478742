"use client";

import type { Answer } from "@/components/account/answers";
import { ResultView } from "@/components/analyzer/ResultView";
import type { Page } from "@/lib/schemas/common";
import type { Audit, AuditSummary } from "@/lib/schemas/audits";
import { AuditActions } from "./AuditActions";
import { AuditCompare } from "./AuditCompare";
import { utcTime } from "./AuditsTable";
import { AuditGoogleView } from "./AuditGoogleView";

/**
 * A saved audit: the landing page's result view, with the audit's own actions and the comparison with
 * the page's other audits (`samePage`, read by the server).
 */
export function AuditDetail({
  audit,
  canEdit,
  samePage,
}: {
  audit: Audit;
  canEdit: boolean;
  samePage: Answer<Page<AuditSummary>>;
}) {
  const grouped = audit.links.filter((link) => link.matchedGroupName !== null).length;
  return (
    <div className="space-y-4">
      <ResultView
        key={audit.id}
        data={audit}
        title={audit.title ?? "Saved audit"}
        titleLevel="h1"
        subtitle={
          <>
            {audit.mode === "url" ? "rendered in Chromium" : `pasted HTML, classified as ${audit.domain}`} ·{" "}
            {utcTime(audit.createdAt)} by {audit.createdBy.email}
            {audit.requestedUrl !== audit.url && ` · requested as ${audit.requestedUrl}`}
            {grouped > 0 && ` · ${grouped} ${grouped === 1 ? "link" : "links"} internal through domain groups`}
          </>
        }
        details={<AuditGoogleView audit={audit} />}
        actions={canEdit ? <AuditActions auditId={audit.id} /> : undefined}
      />
      <AuditCompare audit={audit} initial={samePage} />
    </div>
  );
}
