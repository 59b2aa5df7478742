import type { ShareReport } from "@/lib/schemas/share-report";
import { SITE_ICON } from "@/components/site/SiteChrome";
import { utcTime } from "./format";

/**
 * How the organization brands its reports (reports-and-channels.md "Branding"), ready to draw: the name
 * (its display name, else its name), the logo as a data: URL (the report's policy allows data: images
 * only) with the size it is drawn at, the stylesheet that carries the accent colour (null: LinkLens's
 * look), and the footer.
 */
export interface ReportBrand {
  name: string;
  logo: { src: string; width: number; height: number } | null;
  accentStylesheet: string | null;
  footer: string | null;
}

/**
 * The frame of a client report: who shares it and what it covers, the CSV download, then the report.
 * No sign-in link, no navigation, no control: the reader can only read, page and download. With an
 * accent colour, the top band is drawn in it (its text black or white, whichever contrasts more: WCAG
 * AA), and so are the rules under the title and beside the section headings.
 */
export function ReportFrame({
  report,
  brand,
  csvHref,
  children,
}: {
  report: ShareReport;
  brand: ReportBrand;
  csvHref: string;
  children: React.ReactNode;
}) {
  const subject =
    report.scope === "tag"
      ? `Tracked links tagged “${report.subject}”`
      : report.scope === "monitor"
        ? `Tracked links on ${report.subject}`
        : `Links on ${report.subject}`;
  const accented = brand.accentStylesheet !== null;
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      {brand.accentStylesheet && <link rel="stylesheet" href={brand.accentStylesheet} precedence="default" />}
      <header
        className={
          accented
            ? "bg-(--brand-accent) text-(--brand-on-accent)"
            : "border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/70"
        }
        data-testid="report-brand"
      >
        <div className="mx-auto flex max-w-screen-lg flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <p className="flex min-w-0 items-center gap-3 text-sm font-semibold wrap-anywhere">
            {brand.logo ? (
              // A tile of white under the logo: one made for a white page stays readable on any accent.
              <span className="shrink-0 rounded-md bg-white p-1 leading-none">
                {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL (the page loads no image file) */}
                <img
                  src={brand.logo.src}
                  alt={`${brand.name} logo`}
                  width={brand.logo.width}
                  height={brand.logo.height}
                  className="block h-auto max-h-10 w-auto max-w-48"
                />
              </span>
            ) : (
              // eslint-disable-next-line @next/next/no-img-element -- a 24px inline SVG data URI
              <img src={SITE_ICON} alt="" width={24} height={24} className="size-6" />
            )}
            <span>Client report by {brand.name}</span>
          </p>
          <p className={accented ? "text-xs" : "text-xs text-slate-600 dark:text-slate-400"}>
            Read-only · made with LinkLens
          </p>
        </div>
      </header>
      <main
        className={`mx-auto w-full max-w-screen-lg flex-1 space-y-6 px-4 py-6 sm:px-6 sm:py-8 ${
          accented ? "[&_h2]:border-l-4 [&_h2]:border-(--brand-accent) [&_h2]:pl-2" : ""
        }`}
      >
        <div className="space-y-1">
          <h1
            className={`text-2xl font-bold tracking-tight wrap-anywhere ${accented ? "border-b-4 border-(--brand-accent) pb-1" : ""}`}
          >
            {report.title}
          </h1>
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
      {brand.footer && (
        // The rule spans the text's column, as the title's does (the padding is outside it).
        <footer className="mx-auto w-full max-w-screen-lg px-4 pb-4 sm:px-6">
          <p
            className={`border-t-2 pt-4 text-sm whitespace-pre-line text-slate-700 wrap-anywhere dark:text-slate-300 ${
              accented ? "border-(--brand-accent)" : "border-slate-300 dark:border-slate-700"
            }`}
            data-testid="report-footer"
          >
            {brand.footer}
          </p>
        </footer>
      )}
    </div>
  );
}
