import { SITE_ICON } from "@/components/site/SiteChrome";

/**
 * What /r/{token} shows (with status 404) for a mistyped, revoked or expired link, or a page beyond the
 * last: one view for all of them, so none can be told apart.
 */
export function ReportUnavailable() {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/70">
        <p className="mx-auto flex max-w-screen-lg items-center gap-2 px-4 py-3 text-sm font-semibold sm:px-6">
          {/* eslint-disable-next-line @next/next/no-img-element -- a 24px inline SVG data URI */}
          <img src={SITE_ICON} alt="" width={24} height={24} className="size-6" />
          LinkLens client report
        </p>
      </header>
      <main className="mx-auto w-full max-w-md flex-1 px-4 py-10">
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900/60 dark:ring-slate-800">
          <h1 className="mb-3 text-xl font-bold tracking-tight">This report is not available</h1>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            The link may be mistyped, or it was revoked or has expired. Ask whoever sent it to you for a new one.
          </p>
        </div>
      </main>
    </div>
  );
}
