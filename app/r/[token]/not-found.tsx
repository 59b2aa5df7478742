import { SiteHeader } from "@/components/site/SiteChrome";

// The 404 of /r/{token}: the same page for a mistyped, revoked or expired link, so none can be told apart.
export default function ReportNotFound() {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <main className="mx-auto w-full max-w-md flex-1 px-4 py-10">
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900/60 dark:ring-slate-800">
          <h1 className="mb-3 text-xl font-bold tracking-tight">This report is not available</h1>
          <p className="text-sm text-slate-700 dark:text-slate-300">The link may be mistyped, or it was revoked or has expired. Ask whoever sent it to you for a new one.</p>
        </div>
      </main>
    </div>
  );
}
