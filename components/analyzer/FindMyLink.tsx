"use client";

import { useDeferredValue, useId, useMemo, useState } from "react";
import type { Link } from "@/lib/api/schemas";
import { RelBadges, StatusBadge, ImageBadge } from "./badges";
import { findLinks, parseFindTarget } from "./find-links";
import { isFollowed } from "./link-model";

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * "Verify a placement": type a domain or URL, get a yes/no verdict at once with each matching
 * link's rel flags, anchor text and status.
 */
export function FindMyLink({ links, onSelect }: { links: readonly Link[]; onSelect: (position: number) => void }) {
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const inputId = useId();
  const target = useMemo(() => parseFindTarget(deferredQuery), [deferredQuery]);
  const matches = useMemo(() => (target ? findLinks(links, target) : []), [links, target]);
  const followed = matches.filter(isFollowed).length;

  let verdict: React.ReactNode = null;
  if (deferredQuery.trim() && !target) {
    verdict = (
      <p className="text-sm text-slate-700 dark:text-slate-300">Enter a domain such as example.org, or a URL.</p>
    );
  } else if (target && matches.length === 0) {
    verdict = (
      <p className="flex items-center gap-2 font-semibold text-red-800 dark:text-red-300">
        <span
          aria-hidden="true"
          className="grid size-6 place-items-center rounded-full bg-red-100 text-sm dark:bg-red-900/60"
        >
          ✕
        </span>
        No link to {target.label} on this page.
      </p>
    );
  } else if (target) {
    const tone = followed > 0 ? "text-emerald-800 dark:text-emerald-300" : "text-amber-800 dark:text-amber-300";
    verdict = (
      <p className={`flex items-center gap-2 font-semibold ${tone}`}>
        <span
          aria-hidden="true"
          className={`grid size-6 place-items-center rounded-full text-sm ${followed > 0 ? "bg-emerald-100 dark:bg-emerald-900/60" : "bg-amber-100 dark:bg-amber-900/60"}`}
        >
          ✓
        </span>
        Found {plural(matches.length, "link")} to {target.label} — {followed.toLocaleString("en-US")} followed
      </p>
    );
  }

  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200">
          Domain or URL to look for
        </label>
        <input
          id={inputId}
          type="search"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="yoursite.com or https://yoursite.com/page"
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-blue-600 focus:outline-2 focus:outline-blue-600/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400"
        />
      </div>
      <div role="status" aria-live="polite" data-testid="find-verdict">
        {verdict ?? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Checking a placement? Type the site you expect a link to: the verdict, each link&apos;s rel and its status
            appear as you type.
          </p>
        )}
      </div>
      {matches.length > 0 && (
        <ul
          className="relative max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800"
          aria-label="Matching links"
        >
          {matches.map((link) => (
            <li key={link.position ?? link.href} className="flex items-start gap-2 px-3 py-2 text-sm">
              <button
                type="button"
                disabled={link.position === null}
                onClick={() => link.position !== null && onSelect(link.position)}
                aria-label={`Show link ${link.position ?? "?"} in the snapshot`}
                className="rounded px-1.5 py-0.5 text-xs font-semibold tabular-nums text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-slate-300 dark:ring-slate-600 dark:hover:bg-slate-800"
              >
                #{link.position ?? "?"}
              </button>
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-1.5">
                  {link.isImage && <ImageBadge />}
                  <span className="truncate font-medium">
                    {link.anchorText ?? (
                      <span className="italic text-slate-500 dark:text-slate-400">no anchor text</span>
                    )}
                  </span>
                </p>
                <p className="truncate font-mono text-xs text-slate-600 dark:text-slate-400" title={link.href}>
                  {link.href}
                </p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <RelBadges link={link} />
                <StatusBadge status={link.httpStatus} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
