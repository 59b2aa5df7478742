import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { AuditReportView } from "@/components/shares/AuditReportView";
import { LinksReportView } from "@/components/shares/LinksReportView";
import { ReportFrame } from "@/components/shares/ReportFrame";
import { processRuntime } from "@/lib/db/runtime";
import { openShare } from "@/lib/shares/open";
import { buildReport } from "@/lib/shares/report";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// One lookup per request, shared by the metadata and the page.
const opened = cache(async (token: string) => openShare(processRuntime(), token));

/** ?page=N (from 1); anything else is no page of the report. */
function pageOf(value: string | string[] | undefined): number | null {
  if (value === undefined) return 1;
  return typeof value === "string" && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const share = await opened((await params).token);
  const base: Metadata = { robots: { index: false, follow: false }, referrer: "no-referrer" };
  return share ? { ...base, title: `${share.share.title} — ${share.organizationName}` } : { ...base, title: "Report not available — LinkLens" };
}

// /r/{token} — a client report for people without an account (evidence-and-reports.md): read-only,
// server-rendered, works without JavaScript. Unknown, revoked or expired tokens and pages beyond the last: 404.
export default async function SharePage({ params, searchParams }: Props) {
  const { token } = await params;
  const page = pageOf((await searchParams).page);
  const share = page === null ? null : await opened(token);
  if (!share || page === null) notFound();
  const report = await buildReport(processRuntime(), share, page);
  if (!report) notFound();
  const base = `/r/${encodeURIComponent(token)}`;
  const hrefOf = (target: number) => (target === 1 ? base : `${base}?page=${target}`);
  return (
    <ReportFrame report={report} csvHref={`${base}/export.csv`}>
      {report.kind === "links" ? <LinksReportView report={report} hrefOf={hrefOf} /> : <AuditReportView report={report} hrefOf={hrefOf} />}
    </ReportFrame>
  );
}
