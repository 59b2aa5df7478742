import type { ShareReport } from "@/lib/schemas/share-report";
import { SITE_ICON } from "@/components/site/SiteChrome";
import { utcTime } from "./format";

/**
 * The frame of a client report: who shares it and what it covers, the CSV download, then the report.
 * No sign-in link, no navigation, no control: the reader can only read, page and download.
 */
export function ReportFrame({
  report,
  csvHref,
  children,
}: {
  report: ShareReport;
  csvHref: string;
  children: React.ReactNode;
}) {
  const subject =
    report.scope === "tag"
      ? `Tracked links tagged “${report.subject}”`
      : report.scope === "monitor"
        ? `Tracked links on ${report.subject}`
        : `Links on ${report.subject}`;
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/70">
        <div className="mx-auto flex max-w-screen-lg flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <p className="flex items-center gap-2 text-sm font-semibold">
            {/* eslint-disable-next-line @next/next/no-img-element -- a 24px inline SVG data URI */}
            <img src={SITE_ICON} alt="" width={24} height={24} className="size-6" />
            Client report by {report.organizationName}
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">Read-only · made with LinkLens</p>
        </div>
      </header>
      <main className="mx-auto w-full max-w-screen-lg flex-1 space-y-6 px-4 py-6 sm:px-6 sm:py-8">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight wrap-anywhere">{report.title}</h1>
          <p className="text-sm text-slate-700 wrap-anywhere dark:text-slate-300">{subject}</p>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            As of {utcTime(report.generatedAt)}
            {report.expiresAt ? ` · this link works until ${utcTime(report.expiresAt)}` : ""} ·{" "}
            <a href={csvHref} className="font-medium text-blue-700 hover:underline dark:text-blue-300" download>
              Download CSV
            </a>
          </p>
        </div>
        {children}
      </main>
    </div>
  );
}
