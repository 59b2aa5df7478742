import Link from "next/link";
import { ICON } from "./brand";

/** The landing page's header frame: the logo on the left, whatever the page puts on the right. */
export function SiteHeader({ children }: { children?: React.ReactNode }) {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/70">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight">
          {/* eslint-disable-next-line @next/next/no-img-element -- a 28px inline SVG data URI; next/image adds nothing here */}
          <img src={ICON} alt="" width={28} height={28} className="size-7" />
          LinkLens
        </Link>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">{children}</div>
      </div>
    </header>
  );
}
