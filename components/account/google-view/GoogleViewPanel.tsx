"use client";

import { Panel } from "@/components/analyzer/Panel";
import { googleViewInWords, type GoogleView, type GoogleViewComparison } from "@/lib/schemas/google-view";
import { LocalTime } from "../LocalTime";

/**
 * The monitor page's "Google's view" panel (google-view.md §4): whether Googlebot's render of the page
 * worked and when it ran, the links in each view, and the links only one of the two has (from the latest
 * check's comparison). Members and up switch it on or off for the monitor; a refusal of Googlebot is said
 * as what it is, never as trouble (bot walls refuse a Googlebot that is not Google's).
 */

export interface GoogleViewPanelProps {
  /** The monitor's switch. */
  enabled: boolean;
  /** The last Google view rendered (the page signal), or null. */
  view: GoogleView | null;
  comparison: GoogleViewComparison | null;
  /** Members and up get the switch; null: the reader may not change it. */
  onToggle: ((next: boolean) => void) | null;
  disabled: boolean;
}

function statusInWords(view: GoogleView | null, enabled: boolean): string {
  const words = googleViewInWords(view, enabled);
  if (enabled && view?.status === "ok") return `OK: rendered as Googlebot Smartphone, ${words}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function GoogleViewPanel({ enabled, view, comparison, onToggle, disabled }: GoogleViewPanelProps) {
  const toggle = onToggle ? (
    <button
      type="button"
      role="switch"
      aria-checked={enabled}
      disabled={disabled}
      onClick={() => onToggle(!enabled)}
      className="inline-flex items-center gap-2 rounded-md px-1 py-0.5 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:opacity-60 dark:text-slate-200"
      data-testid="google-view-switch"
    >
      <span
        aria-hidden
        className={`relative inline-block h-5 w-9 rounded-full ring-1 transition-colors ${
          enabled
            ? "bg-sky-700 ring-sky-700 dark:bg-sky-500 dark:ring-sky-500"
            : "bg-slate-300 ring-slate-400 dark:bg-slate-700 dark:ring-slate-500"
        }`}
      >
        <span
          className={`absolute top-0.5 h-4 w-4 rounded-full bg-white shadow transition-[left] ${enabled ? "left-4.5" : "left-0.5"}`}
        />
      </span>
      Render as Googlebot
    </button>
  ) : (
    <span className="text-sm text-slate-600 dark:text-slate-400">{enabled ? "On" : "Off"} for this monitor</span>
  );
  return (
    <Panel id="google-view" title="Google's view" aside={toggle}>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]" data-testid="google-view">
        <dt className="text-slate-600 dark:text-slate-400">Status</dt>
        <dd className="min-w-0 wrap-anywhere" data-google-status={enabled ? (view?.status ?? "none") : "off"}>
          {statusInWords(view, enabled)}
        </dd>
        {enabled && view && (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Rendered</dt>
            <dd>
              <LocalTime iso={view.renderedAt} />
              {view.finalUrl && view.status === "ok" && view.noindex === true ? " (noindex for Googlebot)" : ""}
            </dd>
          </>
        )}
        {enabled && comparison && (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Links</dt>
            <dd data-testid="google-view-counts">
              Googlebot: {comparison.googleLinks} · visitor: {comparison.visitorLinks}
            </dd>
          </>
        )}
      </dl>
      {enabled && comparison && (
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <OnlyIn
            title="Only a visitor gets"
            empty="None: Googlebot gets every link a visitor gets."
            hrefs={comparison.onlyVisitor}
            count={comparison.onlyVisitorCount}
            testId="only-visitor"
          />
          <OnlyIn
            title="Only Googlebot gets"
            empty="None: no link is shown to Googlebot alone."
            hrefs={comparison.onlyGoogle}
            count={comparison.onlyGoogleCount}
            testId="only-google"
          />
        </div>
      )}
      {enabled && view && !comparison && view.status === "ok" && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          The two views are compared at the next check that loads the page.
        </p>
      )}
      {!enabled && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Only a visitor&apos;s desktop render is read: from the next check on, no link is judged by what Googlebot
          gets.
        </p>
      )}
    </Panel>
  );
}

function OnlyIn({
  title,
  empty,
  hrefs,
  count,
  testId,
}: {
  title: string;
  empty: string;
  hrefs: readonly string[];
  count: number;
  testId: string;
}) {
  const headingId = `${testId}-heading`;
  return (
    <section aria-labelledby={headingId} data-testid={testId}>
      <h3 id={headingId} className="text-sm font-semibold">
        {title} ({count})
      </h3>
      {count === 0 ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{empty}</p>
      ) : (
        <ul className="mt-1 space-y-0.5 font-mono text-xs">
          {hrefs.map((href) => (
            <li key={href} className="wrap-anywhere">
              {href}
            </li>
          ))}
          {count > hrefs.length && (
            <li className="font-sans text-slate-600 dark:text-slate-400">and {count - hrefs.length} more</li>
          )}
        </ul>
      )}
    </section>
  );
}
