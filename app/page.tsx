import type { Metadata } from "next";
import Link from "next/link";
import { Analyzer } from "@/components/analyzer/Analyzer";
import { AccountNav } from "@/components/site/AccountNav";
import { ICON } from "@/components/site/brand";
import { SiteHeader } from "@/components/site/SiteHeader";


export const metadata: Metadata = { icons: { icon: ICON } };

const NAV = [
  { href: "/docs", label: "API docs" },
  { href: "/llms.txt", label: "llms.txt" },
  { href: "/openapi.json", label: "OpenAPI" },
];

function NavLinks({ className }: { className?: string }) {
  return (
    <ul className={`flex flex-wrap gap-x-5 gap-y-1 text-sm font-medium ${className ?? ""}`}>
      {NAV.map((item) => (
        <li key={item.href}>
          {item.href === "/docs" ? (
            <Link href={item.href} className="text-slate-700 underline-offset-4 hover:text-blue-800 hover:underline dark:text-slate-300 dark:hover:text-blue-300">
              {item.label}
            </Link>
          ) : (
            <a href={item.href} className="text-slate-700 underline-offset-4 hover:text-blue-800 hover:underline dark:text-slate-300 dark:hover:text-blue-300">
              {item.label}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

// / — the landing page: a server-rendered frame around the client-side analyzer.
export default function HomePage() {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader>
        <nav aria-label="Developer resources">
          <NavLinks />
        </nav>
        <AccountNav />
      </SiteHeader>

      <main className="mx-auto w-full max-w-screen-2xl flex-1 px-4 py-6 sm:px-6 sm:py-8">
        <div className="mb-6 max-w-3xl">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Every link on a page, after JavaScript runs.</h1>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            Verify a backlink placement or audit a page in seconds: internal vs external, follow vs nofollow, sponsored and ugc, anchor text and HTTP status.
          </p>
        </div>
        <Analyzer />
      </main>

      <footer className="border-t border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center justify-between gap-3 px-4 py-4 text-sm text-slate-600 sm:px-6 dark:text-slate-400">
          <p>LinkLens · anonymous results are not saved.</p>
          <nav aria-label="Footer">
            <NavLinks />
          </nav>
        </div>
      </footer>
    </div>
  );
}
