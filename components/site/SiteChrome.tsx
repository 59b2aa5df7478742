import Link from "next/link";
import { AccountNav } from "./AccountNav";
import { SITE_ICON } from "./site-icon";

/** The site's header, navigation and footer, shared by the landing page and /docs. */

export { SITE_ICON };

const NAV = [
  { href: "/docs", label: "API docs" },
  { href: "/llms.txt", label: "llms.txt" },
  { href: "/openapi.json", label: "OpenAPI" },
];

const LINK_CLASS =
  "text-slate-700 underline-offset-4 hover:text-blue-800 hover:underline dark:text-slate-300 dark:hover:text-blue-300";

function NavLinks({ className, current }: { className?: string; current?: string }) {
  return (
    <ul className={`flex flex-wrap gap-x-5 gap-y-1 text-sm font-medium ${className ?? ""}`}>
      {NAV.map((item) => (
        <li key={item.href}>
          {item.href === "/docs" ? (
            <Link href={item.href} className={LINK_CLASS} aria-current={current === item.href ? "page" : undefined}>
              {item.label}
            </Link>
          ) : (
            <a href={item.href} className={LINK_CLASS}>
              {item.label}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The top bar: the LinkLens mark (home), the developer links and "Sign in" / the account menu.
 * `current` marks the page the visitor is on; `children` replace the right side (the signed-in app's own navigation).
 */
export function SiteHeader({ current, children }: { current?: string; children?: React.ReactNode }) {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/70">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight">
          {/* eslint-disable-next-line @next/next/no-img-element -- a 28px inline SVG data URI; next/image adds nothing here */}
          <img src={SITE_ICON} alt="" width={28} height={28} className="size-7" />
          LinkLens
        </Link>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          {children ?? (
            <>
              <nav aria-label="Developer resources">
                <NavLinks current={current} />
              </nav>
              <AccountNav />
            </>
          )}
        </div>
      </div>
    </header>
  );
}

export function SiteFooter({ current }: { current?: string }) {
  return (
    <footer className="border-t border-slate-200 dark:border-slate-800">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center justify-between gap-3 px-4 py-4 text-sm text-slate-600 sm:px-6 dark:text-slate-400">
        <p>LinkLens · anonymous results are not saved.</p>
        <nav aria-label="Footer">
          <NavLinks current={current} />
        </nav>
      </div>
    </footer>
  );
}
