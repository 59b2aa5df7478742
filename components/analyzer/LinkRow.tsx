"use client";

import { memo } from "react";
import { GroupBadge, ImageBadge, RelBadges, SignalBadges, StatusBadge, TypeBadge } from "./badges";
import type { ViewLink } from "./link-model";

function isWebUrl(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/** https:// is the norm and eats a narrow column; plain http:// stays visible because it is worth noticing. */
function displayHref(href: string): string {
  return href.replace(/^https:\/\//i, "");
}

function Href({ href }: { href: string }) {
  return isWebUrl(href) ? (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      onClick={(event) => event.stopPropagation()}
      title={href}
      className="block truncate text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
    >
      {displayHref(href)}
    </a>
  ) : (
    <span className="block truncate text-slate-700 dark:text-slate-300" title={href}>
      {href || "(empty)"}
    </span>
  );
}

/**
 * One table row. The position cell is a real button (Tab + Enter/Space select it); a click anywhere
 * on the row selects too. Hrefs become links only when http(s): a javascript: href from the analyzed
 * page must never become clickable here.
 */
export const LinkRow = memo(function LinkRow({
  link,
  selected,
  onSelect,
}: {
  link: ViewLink;
  selected: boolean;
  onSelect: (position: number) => void;
}) {
  const position = link.position;
  return (
    <tr
      data-position={position ?? undefined}
      data-selected={selected || undefined}
      onClick={() => position !== null && onSelect(position)}
      className={`cursor-pointer border-t border-slate-100 align-top dark:border-slate-800 ${selected ? "bg-amber-50 dark:bg-amber-950/40" : "hover:bg-slate-50 dark:hover:bg-slate-900"}`}
    >
      <td className="px-2 py-1.5">
        <button
          type="button"
          aria-pressed={selected}
          aria-label={`Show link ${position ?? "?"} in the snapshot`}
          disabled={position === null}
          onClick={(event) => {
            event.stopPropagation();
            if (position !== null) onSelect(position);
          }}
          className={`min-w-8 rounded px-1.5 py-0.5 text-left text-xs font-semibold tabular-nums focus-visible:outline-2 focus-visible:outline-blue-700 ${selected ? "bg-amber-400 text-amber-950" : "text-slate-700 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-700"}`}
        >
          {position ?? "–"}
        </button>
      </td>
      <td className="px-2 py-1.5">
        <span className="flex min-w-0 items-start gap-1.5">
          {link.isImage && <ImageBadge />}
          {link.anchorText ? (
            <span className="line-clamp-2 break-words" title={link.anchorText}>
              {link.anchorText}
            </span>
          ) : (
            <span className="italic text-slate-500 dark:text-slate-400">no anchor text</span>
          )}
        </span>
        {/* A signed-in audit's links: hidden, script only, region (the public answer has no signals). */}
        {link.signals && (
          <span className="mt-1 block">
            <SignalBadges signals={link.signals} />
          </span>
        )}
        {/* Phones: the other columns are hidden, so their content stacks under the anchor text. */}
        <span className="mt-1 block space-y-1 sm:hidden">
          <span className="block font-mono text-xs">
            <Href href={link.href} />
          </span>
          <span className="flex flex-wrap items-center gap-1">
            <TypeBadge type={link.linkType} />
            {link.matchedGroupName && <GroupBadge name={link.matchedGroupName} />}
            <RelBadges link={link} />
            <StatusBadge status={link.httpStatus} />
          </span>
        </span>
      </td>
      <td className="hidden px-2 py-1.5 font-mono text-xs sm:table-cell">
        <Href href={link.href} />
      </td>
      <td className="hidden px-2 py-1.5 sm:table-cell">
        <span className="flex flex-col items-start gap-1">
          <TypeBadge type={link.linkType} />
          {link.matchedGroupName && <GroupBadge name={link.matchedGroupName} />}
        </span>
      </td>
      <td className="hidden px-2 py-1.5 sm:table-cell">
        <RelBadges link={link} />
      </td>
      <td className="hidden px-2 py-1.5 sm:table-cell">
        <StatusBadge status={link.httpStatus} />
      </td>
    </tr>
  );
});
