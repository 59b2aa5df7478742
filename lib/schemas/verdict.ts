import { z } from "zod";
import { LinkSchema } from "../api/schemas";
import { CRAWLER_ACCESS, CrawlersSchema } from "./crawlers";
import { GoogleViewSchema } from "./google-view";

/**
 * Placement verdict (placement-verdict.md): the link and page signals of a signed-in analysis and the
 * verdict of a tracked link, as the account API answers them, with the words the app and the emails
 * use. The public Link (lib/api/schemas.ts) stays exactly as public-api.md specifies it: the signed-in
 * link extends it with `signals`.
 */

export const REGIONS = ["main", "header", "nav", "aside", "footer"] as const;
export type Region = (typeof REGIONS)[number];
/** Regions whose links are boilerplate (site-wide navigation, headers, sidebars, footers): `boilerplate_region`. */
export const BOILERPLATE_REGIONS: readonly Region[] = ["header", "nav", "aside", "footer"];

export const LinkSignalsSchema = z
  .strictObject({
    inRawHtml: z.boolean().nullable().meta({
      description:
        "URL mode: a link with the same resolved href is in the HTML as the server sent it (false: only after scripts ran); paste mode: null.",
    }),
    hidden: z.boolean().nullable().meta({
      description:
        "URL mode: the link cannot be seen in the rendered page at 1280×800 (CSS, zero box, off the document, clipped); paste mode: null.",
    }),
    region: z
      .enum(REGIONS)
      .nullable()
      .meta({ description: "The nearest ancestor landmark (main, header, nav, aside, footer), or null." }),
    inGoogleView: z.boolean().nullable().meta({
      description:
        "A link with the same resolved href is in Googlebot's render (google-view.md); null when Google's view is unavailable, off or not rendered (paste mode: null).",
    }),
  })
  .meta({ id: "LinkSignals" });
export type LinkSignals = z.infer<typeof LinkSignalsSchema>;

/** Signals of a link analysed before signals existed: nothing known. */
export const UNKNOWN_SIGNALS: LinkSignals = { inRawHtml: null, hidden: null, region: null, inGoogleView: null };

/** A link of a signed-in analysis: the public Link fields, then its signals. */
export const SignedInLinkSchema = LinkSchema.extend({ signals: LinkSignalsSchema }).meta({ id: "SignedInLink" });
export type SignedInLink = z.infer<typeof SignedInLinkSchema>;

/** robots.txt's answer for one agent (Googlebot's is `robotsTxt`; every agent's, `crawlers`). */
export const ROBOTS_TXT_ANSWERS = CRAWLER_ACCESS;
export type RobotsTxtAnswer = (typeof ROBOTS_TXT_ANSWERS)[number];
export const NOINDEX_SOURCES = ["meta", "header"] as const;

/** Monitor.page and Audit.page (paste mode: only noindex, noindexSource and canonicalUrl; the rest null). */
export const PageSignalsSchema = z
  .strictObject({
    httpStatus: z.number().int().nullable(),
    finalUrl: z.string().nullable().meta({ description: "The page's URL after redirects." }),
    noindex: z.boolean().nullable(),
    noindexSource: z.enum(NOINDEX_SOURCES).nullable().meta({
      description: '"meta" (meta robots or googlebot), "header" (X-Robots-Tag; also when both say it), or null.',
    }),
    canonicalUrl: z
      .string()
      .nullable()
      .meta({ description: "The first rel=canonical, resolved against the base URL." }),
    canonicalElsewhere: z.boolean().nullable().meta({
      description:
        "canonicalUrl is set and is not finalUrl (ignoring the fragment, default ports, case of scheme and host, one trailing slash).",
    }),
    robotsTxt: z.enum(ROBOTS_TXT_ANSWERS).nullable().meta({
      description: "robots.txt for Googlebot and the final URL; unavailable: 5xx, timeout or a blocked address.",
    }),
    crawlers: CrawlersSchema.nullable(),
    googleView: GoogleViewSchema.nullable().meta({
      description:
        "The page as Googlebot Smartphone renders it (google-view.md); null before the first one, when off, and in paste mode.",
    }),
  })
  .meta({ id: "PageSignals" });
export type PageSignals = z.infer<typeof PageSignalsSchema>;

export const VERDICT_VALUES = ["counts", "at_risk", "does_not_count"] as const;
export type VerdictValue = (typeof VERDICT_VALUES)[number];

/** Any of these makes a link `does_not_count`, in this order. */
export const DOES_NOT_COUNT_REASONS = [
  "missing",
  "removed_by_script",
  "broken_target",
  "nofollow",
  "sponsored",
  "ugc",
  "hidden",
  "page_noindex",
  "robots_disallowed",
  "not_in_google_view",
  "shown_only_to_googlebot",
] as const;
/** Any of these (and none of the first list) makes it `at_risk`, in this order. */
export const AT_RISK_REASONS = ["script_only", "canonical_elsewhere", "page_redirected", "boilerplate_region"] as const;
/** Every reason, in the order `reasons` lists them. */
export const VERDICT_REASONS = [...DOES_NOT_COUNT_REASONS, ...AT_RISK_REASONS] as const;
export type VerdictReason = (typeof VERDICT_REASONS)[number];

export const VerdictSchema = z
  .strictObject({
    value: z.enum(VERDICT_VALUES),
    reasons: z
      .array(z.enum(VERDICT_REASONS))
      .meta({ description: "Every reason that applies, in the order of placement-verdict.md's lists." }),
  })
  .meta({ id: "Verdict" });
export type Verdict = z.infer<typeof VerdictSchema>;

/** The badge of a verdict. */
export const VERDICT_LABELS: Record<VerdictValue, string> = {
  counts: "Counts",
  at_risk: "At risk",
  does_not_count: "Doesn't count",
};

/** Each reason in words, as a person acts on it (the app's badges, emails, MCP summaries). */
export const REASON_WORDS: Record<VerdictReason, string> = {
  missing: "Link no longer on the page",
  removed_by_script: "Link removed by JavaScript after the page loaded",
  broken_target: "Link target is broken",
  nofollow: "Link is nofollow",
  sponsored: "Link is marked sponsored",
  ugc: "Link is marked ugc (user-generated)",
  hidden: "Link hidden by CSS",
  page_noindex: "Page is set to noindex",
  robots_disallowed: "Page blocked by robots.txt",
  not_in_google_view: "Link not in Googlebot's view of the page (hidden from its user agent or its phone layout)",
  shown_only_to_googlebot: "Link shown only to Googlebot, not to visitors (cloaking)",
  script_only: "Link only present after JavaScript",
  canonical_elsewhere: "Page's canonical points to another URL",
  page_redirected: "Page redirects to another URL",
  boilerplate_region: "Link in a header, navigation, sidebar or footer",
};

/** The reasons in words, joined for one line ("Link is nofollow; Link hidden by CSS"). */
export function reasonsInWords(reasons: readonly VerdictReason[]): string {
  return reasons.map((reason) => REASON_WORDS[reason]).join("; ");
}
