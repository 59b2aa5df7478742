import { GOOGLE_VIEW_DIFF_MAX, type GoogleView, type GoogleViewComparison } from "../schemas/google-view";
import type { LinkSignals } from "../schemas/verdict";

/**
 * Google's view beside the visitor's (google-view.md §2), as pure rules: which links of the visitor's
 * render Googlebot's render has (`inGoogleView`), which only one of the two has (the monitor page's
 * panel), and what the verdict reads of it. Links are compared by their resolved href, as `inRawHtml`
 * compares the raw HTML's.
 */

/**
 * A Google view as the verdict reads it: the signal, and the unique resolved hrefs of its links in page
 * order (null when the render was unavailable: then it says nothing about any link).
 */
export interface GoogleReading {
  view: GoogleView;
  hrefs: readonly string[] | null;
}

/** A render of Googlebot's view as the analyzer's front door answers it (renderGoogleView), as far as it is read here. */
export interface GoogleRenderFacts {
  status: GoogleView["status"];
  httpStatus: number | null;
  finalUrl: string | null;
  noindex: boolean | null;
  links: readonly { href: string }[] | null;
  renderedAt: Date;
}

/** A render as the signal the API shows and the reading the verdict uses. */
export function readingOf(render: GoogleRenderFacts): GoogleReading {
  const view: GoogleView = {
    status: render.status,
    httpStatus: render.httpStatus,
    finalUrl: render.finalUrl,
    noindex: render.status === "ok" ? render.noindex : null,
    linkCount: render.links ? render.links.length : null,
    renderedAt: render.renderedAt.toISOString(),
  };
  return { view, hrefs: render.status === "ok" && render.links ? uniqueHrefs(render.links) : null };
}

/** The analyzer's signals of a link (no Google view yet). */
export type RenderSignals = Omit<LinkSignals, "inGoogleView">;

/** Links usable for the comparison: only an `ok` reading with its hrefs says anything. */
function usableHrefs(reading: GoogleReading | null): ReadonlySet<string> | null {
  if (!reading || reading.view.status !== "ok" || !reading.hrefs) return null;
  return new Set(reading.hrefs);
}

/**
 * The visitor's links' signals with `inGoogleView`: true when a link with the same resolved href is in
 * Googlebot's render; null for every link when there is no usable Google view (off, not rendered, unavailable).
 */
export function withGoogleView(
  links: readonly { href: string }[],
  signals: readonly (RenderSignals | undefined)[],
  reading: GoogleReading | null,
): LinkSignals[] {
  const google = usableHrefs(reading);
  return links.map((link, index) => {
    const own = signals[index] ?? { inRawHtml: null, hidden: null, region: null };
    return {
      inRawHtml: own.inRawHtml,
      hidden: own.hidden,
      region: own.region,
      inGoogleView: google ? google.has(link.href) : null,
    };
  });
}

/** The unique hrefs of a render's links, in page order (what a Google view keeps). */
export function uniqueHrefs(links: readonly { href: string }[]): string[] {
  return [...new Set(links.map((link) => link.href))];
}

/**
 * What the verdict of a tracked link reads of Google's view: whether Googlebot's render is noindex,
 * and whether it has a link that matches the tracked link (`shown_only_to_googlebot` when visitors have
 * none). null when there is no usable Google view: no reason from google-view.md then.
 */
export interface GoogleFacts {
  noindex: boolean;
  hasMatch: boolean;
}

export function googleFacts(reading: GoogleReading | null, matches: (href: string) => boolean): GoogleFacts | null {
  if (!reading || reading.view.status !== "ok" || !reading.hrefs) return null;
  return { noindex: reading.view.noindex === true, hasMatch: reading.hrefs.some(matches) };
}

/** The "Google's view" panel: the hrefs only one of the two renders has, each list capped, the counts whole. */
export function compareViews(
  visitorLinks: readonly { href: string }[],
  reading: GoogleReading | null,
): GoogleViewComparison | null {
  const google = usableHrefs(reading);
  if (!google || !reading?.hrefs) return null;
  const visitor = uniqueHrefs(visitorLinks);
  const visitorSet = new Set(visitor);
  const onlyVisitor = visitor.filter((href) => !google.has(href));
  const onlyGoogle = reading.hrefs.filter((href) => !visitorSet.has(href));
  return {
    visitorLinks: visitorLinks.length,
    googleLinks: reading.view.linkCount ?? reading.hrefs.length,
    onlyVisitorCount: onlyVisitor.length,
    onlyVisitor: onlyVisitor.slice(0, GOOGLE_VIEW_DIFF_MAX),
    onlyGoogleCount: onlyGoogle.length,
    onlyGoogle: onlyGoogle.slice(0, GOOGLE_VIEW_DIFF_MAX),
  };
}
