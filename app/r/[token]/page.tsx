import type { Metadata } from "next";
import { cache } from "react";
import { AuditReportView } from "@/components/shares/AuditReportView";
import { LinksReportView } from "@/components/shares/LinksReportView";
import { ReportFrame, type ReportBrand } from "@/components/shares/ReportFrame";
import { ReportUnavailable } from "@/components/shares/ReportUnavailable";
import { logoDataUrl, logoDrawnSize, resolveBranding } from "@/lib/branding";
import { accentStylesheetPath } from "@/lib/branding/stylesheet";
import { processRuntime } from "@/lib/db/runtime";
import { openShare } from "@/lib/shares/open";
import { buildReport, reportPageParam } from "@/lib/shares/report";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// One lookup per request, shared by the metadata and the page.
const opened = cache(async (token: string) => openShare(processRuntime(), token));

/** The organization's branding as the report draws it (reports-and-channels.md "Branding"). */
const brandOf = cache(async (organizationId: string): Promise<ReportBrand> => {
  const branding = await resolveBranding(processRuntime().db, organizationId);
  return {
    name: branding.name,
    logo: branding.logoPng ? { src: logoDataUrl(branding.logoPng), ...logoDrawnSize(branding.logoPng) } : null,
    accentStylesheet: branding.accentColor ? accentStylesheetPath(branding.accentColor) : null,
    footer: branding.footer,
  };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const share = await opened((await params).token);
  const base: Metadata = { robots: { index: false, follow: false }, referrer: "no-referrer" };
  if (!share) return { ...base, title: "Report not available — LinkLens" };
  const brand = await brandOf(share.share.organizationId);
  return { ...base, title: `${share.share.title} — ${brand.name}` };
}

// /r/{token} — a client report for people without an account (evidence-and-reports.md): read-only,
// server-rendered, works without JavaScript. An unknown, revoked or expired token, or a page beyond the
// last, shows the "not available" view, and the production server answers it with 404 (server/main.ts
// asks lib/shares/report.ts reportPageExists first: a page's own notFound() needs JavaScript to show).
export default async function SharePage({ params, searchParams }: Props) {
  const { token } = await params;
  const page = reportPageParam((await searchParams).page);
  const share = page === null ? null : await opened(token);
  const report = share && page !== null ? await buildReport(processRuntime(), share, page) : null;
  if (!share || !report) return <ReportUnavailable />;
  const brand = await brandOf(share.share.organizationId);
  const base = `/r/${encodeURIComponent(token)}`;
  const hrefOf = (target: number) => (target === 1 ? base : `${base}?page=${target}`);
  return (
    <ReportFrame report={report} brand={brand} csvHref={`${base}/export.csv`}>
      {report.kind === "links" ? (
        <LinksReportView report={report} hrefOf={hrefOf} />
      ) : (
        <AuditReportView report={report} hrefOf={hrefOf} />
      )}
    </ReportFrame>
  );
}
