import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/site/SiteChrome";
import { AccountMenu } from "@/components/account/AccountMenu";
import { describeMe } from "@/lib/account/me";
import { pageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "LinkLens" };
export const dynamic = "force-dynamic";

const NAV = [
  { href: "/app", label: "Overview" },
  { href: "/app/monitors", label: "Monitors" },
  { href: "/app/links", label: "Links" },
  { href: "/app/audits", label: "Audits" },
  { href: "/app/groups", label: "Groups" },
  { href: "/app/alerts", label: "Alerts" },
  { href: "/app/webhooks", label: "Webhooks" },
  { href: "/app/reports", label: "Reports" },
  { href: "/app/team", label: "Team" },
  { href: "/app/settings", label: "Settings" },
];

// /app/* — the signed-in frame: the site header with the account menu, then the section's page.
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  // The frame serves a member who still has to enrol: their pages send them to Settings, which it frames.
  const ctx = await pageContext("/app", { twoFactorExempt: true });
  const me = await describeMe(ctx);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader>
        <nav aria-label="Account">
          {/* Nine sections: on a phone they wrap onto a second line instead of widening the page. */}
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm font-medium sm:gap-x-5">
            {NAV.map((item) => (
              <li key={item.href}>
                <Link
                  href={item.href}
                  className="text-slate-700 underline-offset-4 hover:text-blue-800 hover:underline dark:text-slate-300"
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <AccountMenu me={me} />
      </SiteHeader>
      <main className="mx-auto w-full max-w-screen-lg flex-1 px-4 py-6 sm:px-6 sm:py-8">{children}</main>
    </div>
  );
}
