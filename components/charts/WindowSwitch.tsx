import Link from "next/link";
import { HISTORY_WINDOWS } from "@/lib/schemas/stats";

/** 30 / 90 / 365 days as plain links (works without JavaScript); the current one is marked. */
export function WindowSwitch({ current, hrefOf }: { current: number; hrefOf: (days: number) => string }) {
  return (
    <nav aria-label="Chart period">
      <ul className="flex overflow-hidden rounded-md text-sm ring-1 ring-slate-300 dark:ring-slate-700">
        {HISTORY_WINDOWS.map((value) => {
          const days = Number(value);
          const active = days === current;
          return (
            <li key={value} className="border-l border-slate-300 first:border-l-0 dark:border-slate-700">
              <Link
                href={hrefOf(days)}
                aria-current={active ? "true" : undefined}
                scroll={false}
                className={`block px-3 py-1 font-medium ${active ? "bg-blue-700 text-white dark:bg-blue-600" : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"}`}
              >
                {days} days
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
