import type { Link } from "@/lib/api/schemas";
import { GOOGLE_VIEW_BADGES } from "@/lib/schemas/google-view";
import type { LinkSignals } from "@/lib/schemas/verdict";
import { isAccessWall, isBrokenStatus } from "@/lib/link-status";
import { relKindsOf, type LinkType, type RelKind } from "./link-model";

/**
 * The colour language of the whole page: green = followed / OK, amber = nofollow or an access wall,
 * violet = sponsored, sky = ugc, red = broken, fuchsia = Google's view. Every badge also says it in words.
 */
const base = "inline-flex items-center rounded px-1.5 py-0.5 text-[11px] font-semibold leading-none whitespace-nowrap";

export const REL_STYLES: Record<RelKind, string> = {
  follow: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200",
  nofollow: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200",
  sponsored: "bg-violet-100 text-violet-900 dark:bg-violet-900/50 dark:text-violet-200",
  ugc: "bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-200",
};

const TYPE_STYLES: Record<LinkType, string> = {
  internal: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  external: "bg-indigo-100 text-indigo-900 dark:bg-indigo-900/50 dark:text-indigo-200",
  ignored: "bg-transparent text-slate-600 ring-1 ring-inset ring-slate-300 dark:text-slate-400 dark:ring-slate-600",
};

export function RelBadges({ link }: { link: Link }) {
  const kinds = relKindsOf(link);
  if (kinds.length === 0) return <span className="text-xs text-slate-500 dark:text-slate-400">n/a</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {kinds.map((kind) => (
        <span key={kind} className={`${base} ${REL_STYLES[kind]}`}>
          {kind}
        </span>
      ))}
    </span>
  );
}

export function TypeBadge({ type }: { type: LinkType }) {
  return <span className={`${base} ${TYPE_STYLES[type]}`}>{type}</span>;
}

/**
 * The domain group that made a link internal (signed-in audits): the link goes to a sister site of the
 * page. Never shown on the landing page, whose answers have no groups.
 */
export function GroupBadge({ name }: { name: string }) {
  return (
    <span
      className={`${base} max-w-full truncate bg-teal-100 text-teal-900 dark:bg-teal-900/50 dark:text-teal-100`}
      title={`Internal through the domain group "${name}"`}
      data-testid="group-badge"
    >
      <span className="sr-only">domain group </span>
      {name}
    </span>
  );
}

export function ImageBadge() {
  return (
    <span className={`${base} bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100`} title="Image link">
      IMG
    </span>
  );
}

export function StatusBadge({ status }: { status: number | null }) {
  if (status === null) {
    return (
      <span className="text-xs text-slate-500 dark:text-slate-400" title="Not checked">
        —<span className="sr-only">not checked</span>
      </span>
    );
  }
  let style = "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200";
  let title = "OK";
  if (isBrokenStatus(status)) {
    style = "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100";
    title = status === 0 ? "No HTTP response (DNS, refused, timeout or blocked)" : "Broken";
  } else if (isAccessWall(status)) {
    style = "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200";
    title = "Access or bot wall: reported, not counted as broken";
  } else if (status >= 300 && status < 400) {
    style = "bg-blue-100 text-blue-900 dark:bg-blue-900/50 dark:text-blue-200";
    title = "Redirect";
  }
  return (
    <span className={`${base} tabular-nums ${style}`} title={title}>
      {status === 0 ? "no response" : status}
    </span>
  );
}

const REGION_WORDS: Record<NonNullable<LinkSignals["region"]>, string> = {
  main: "In the main content (main, article)",
  header: "In the page header: boilerplate",
  nav: "In a navigation block: boilerplate",
  aside: "In a sidebar: boilerplate",
  footer: "In the page footer: boilerplate",
};

/**
 * A signed-in link's signals (placement-verdict.md): `hidden` (red: it cannot be seen), `script only`
 * (amber: only present after JavaScript), not in Google's view (fuchsia: Googlebot's render has no such
 * link, google-view.md §4), and its region. Nothing for what is not known (paste mode,
 * older analyses) or fine; the public answer has no signals, so the landing page never shows these.
 */
export function SignalBadges({ signals }: { signals: LinkSignals }) {
  if (
    signals.hidden !== true &&
    signals.inRawHtml !== false &&
    signals.region === null &&
    signals.inGoogleView !== false
  )
    return null;
  return (
    <span className="flex flex-wrap gap-1" data-testid="signal-badges">
      {signals.hidden === true && (
        <span
          className={`${base} bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100`}
          title="Cannot be seen in the rendered page (CSS, zero size, off the page or clipped)"
          data-signal="hidden"
        >
          hidden
        </span>
      )}
      {signals.inRawHtml === false && (
        <span
          className={`${base} bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200`}
          title="Not in the HTML the server sent: only present after JavaScript ran"
          data-signal="script-only"
        >
          script only
        </span>
      )}
      {signals.inGoogleView === false && (
        <span
          className={`${base} bg-fuchsia-100 text-fuchsia-900 dark:bg-fuchsia-900/60 dark:text-fuchsia-100`}
          title="Googlebot's render of the page does not have this link (kept from its user agent or its phone layout)"
          data-signal="not-in-google-view"
        >
          {GOOGLE_VIEW_BADGES.notInGoogleView}
        </span>
      )}
      {signals.region !== null && (
        <span
          className={`${base} ${signals.region === "main" ? "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200" : "bg-orange-100 text-orange-900 dark:bg-orange-900/50 dark:text-orange-200"}`}
          title={REGION_WORDS[signals.region]}
          data-signal="region"
        >
          <span className="sr-only">region </span>
          {signals.region}
        </span>
      )}
    </span>
  );
}
