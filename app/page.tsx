import type { Metadata } from "next";
import { Analyzer } from "@/components/analyzer/Analyzer";
import { SITE_ICON, SiteFooter, SiteHeader } from "@/components/site/SiteChrome";

export const metadata: Metadata = { icons: { icon: SITE_ICON } };

// / — the landing page: a server-rendered frame around the client-side analyzer.
export default function HomePage() {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader current="/" />

      <main className="mx-auto w-full max-w-screen-2xl flex-1 px-4 py-6 sm:px-6 sm:py-8">
        <div className="mb-6 max-w-3xl">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">
            Every link on a page, after JavaScript runs.
          </h1>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            Verify a backlink placement or audit a page in seconds: internal vs external, follow vs nofollow, sponsored
            and ugc, anchor text and HTTP status.
          </p>
        </div>
        <Analyzer />
      </main>

      <SiteFooter current="/" />
    </div>
  );
}
