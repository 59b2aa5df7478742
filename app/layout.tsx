import type { Metadata } from "next";
import { SITE_ICON } from "@/components/site/SiteChrome";
import "./globals.css";

export const metadata: Metadata = {
  title: "LinkLens: page-level link analyzer",
  description:
    "Render a public page and see every link: internal or external, nofollow, sponsored, ugc, anchor text and HTTP status.",
  // Every page names its icon: without it browsers ask for /favicon.ico, a 404 (the account pages did).
  icons: { icon: SITE_ICON },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
      </body>
    </html>
  );
}
