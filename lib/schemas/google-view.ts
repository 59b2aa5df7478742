import { z } from "zod";
import { isoTime } from "./common";

/**
 * Google's view (google-view.md §2): the page as Googlebot Smartphone renders it, beside the visitor's
 * render. Bot walls refuse a Googlebot user agent that does not come from Google's addresses, so a
 * refusal (`unavailable`) says nothing about Google: never a loss, a reason or a page error.
 * Browser-safe (zod only): the app, the emails and the exports read the same words.
 */

export const GOOGLE_VIEW_STATUSES = ["ok", "unavailable"] as const;
export type GoogleViewStatus = (typeof GOOGLE_VIEW_STATUSES)[number];

export const GoogleViewSchema = z
  .strictObject({
    status: z.enum(GOOGLE_VIEW_STATUSES).meta({
      description:
        "ok: Googlebot's render loaded as a 2xx HTML page; unavailable: it answered a non-2xx status, a bot challenge or not HTML, or failed (never a loss, a reason or a page error: bot walls refuse a Googlebot that is not Google's).",
    }),
    httpStatus: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The status Googlebot's render got; null when no response came." }),
    finalUrl: z.string().nullable().meta({ description: "Where Googlebot's render ended after redirects." }),
    noindex: z.boolean().nullable().meta({
      description: "Googlebot's render is noindex (meta robots/googlebot or X-Robots-Tag); null when unavailable.",
    }),
    linkCount: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Links captured in Googlebot's render (shadow DOM flattened); null when unavailable." }),
    renderedAt: isoTime.meta({ description: "When Googlebot's render ran (between renders the last one stands)." }),
  })
  .meta({ id: "GoogleView" });
export type GoogleView = z.infer<typeof GoogleViewSchema>;

/**
 * The monitor page's "Google's view" panel: the links (unique resolved hrefs) only one of the two renders
 * has, as the latest check that loaded the page compared them with the Google view that stood then.
 * Each list is capped at GOOGLE_VIEW_DIFF_MAX hrefs (the counts are whole).
 */
export const GOOGLE_VIEW_DIFF_MAX = 100;

export const GoogleViewComparisonSchema = z
  .strictObject({
    visitorLinks: z.number().int().meta({ description: "Links of the visitor's render (the latest check's)." }),
    googleLinks: z.number().int().meta({ description: "Links of Googlebot's render (the Google view that stood)." }),
    onlyVisitorCount: z.number().int().meta({ description: "Unique hrefs only the visitor's render has." }),
    onlyVisitor: z
      .array(z.string())
      .meta({ description: `Those hrefs, at most ${GOOGLE_VIEW_DIFF_MAX}, in page order.` }),
    onlyGoogleCount: z.number().int().meta({ description: "Unique hrefs only Googlebot's render has." }),
    onlyGoogle: z
      .array(z.string())
      .meta({ description: `Those hrefs, at most ${GOOGLE_VIEW_DIFF_MAX}, in page order.` }),
  })
  .meta({ id: "GoogleViewComparison" });
export type GoogleViewComparison = z.infer<typeof GoogleViewComparisonSchema>;

/** The badges of a tracked link's or an audit link's Google view (the app). */
export const GOOGLE_VIEW_BADGES = {
  notInGoogleView: "Not seen by Google",
  shownOnlyToGooglebot: "Only shown to Googlebot",
} as const;

/** The panel's status line in words ("Rendered as Googlebot: 42 links", "Googlebot was refused (HTTP 403)", …). */
export function googleViewInWords(view: GoogleView | null, enabled: boolean): string {
  if (!enabled) return "off for this monitor";
  if (!view) return "not rendered yet";
  if (view.status === "ok") {
    const links = `${view.linkCount ?? 0} link${view.linkCount === 1 ? "" : "s"}`;
    return view.noindex ? `${links}; noindex for Googlebot` : links;
  }
  return view.httpStatus === null
    ? "unavailable: Googlebot's render failed (says nothing about Google)"
    : `unavailable: the page answered Googlebot with HTTP ${view.httpStatus} (bot walls refuse a Googlebot that is not Google's)`;
}

/** Stored JSON (a jsonb column, an old row) read back as the signal, or null when it is not one. */
export function googleViewOf(value: unknown): GoogleView | null {
  const parsed = GoogleViewSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
