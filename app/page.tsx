import type { Metadata } from "next";
import Link from "next/link";
import { Analyzer } from "@/components/analyzer/Analyzer";

// An inline icon, so browsers do not ask for a /favicon.ico that does not exist.
const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><circle cx="14" cy="14" r="7" fill="none" stroke="#fff" stroke-width="3"/><path d="M19 19l7 7" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>')}`;

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
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/70">
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
          <Link href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight">
            {/* eslint-disable-next-line @next/next/no-img-element -- a 28px inline SVG data URI; next/image adds nothing here */}
            <img src={ICON} alt="" width={28} height={28} className="size-7" />
            LinkLens
          </Link>
          <nav aria-label="Developer resources">
            <NavLinks />
          </nav>
        </div>
      </header>

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
