import type { HttpStatus } from "@/lib/link-status";
import type { EvidenceCamera } from "./screenshots/camera";

/**
 * The analyzer's result types. They mirror the DemoAnalyzeSuccess schema of public-api.md §2.6
 * field for field; lib/api/schemas.ts holds the zod twin used for validation and OpenAPI and fails the
 * typecheck if the two drift apart (_AnalyzerResultMatchesSchemas).
 */

export type LinkType = "internal" | "external" | "ignored";

export interface AnalyzedLink {
  /** Absolute URL (WHATWG serialization) or the raw attribute when it cannot be resolved. */
  href: string;
  /** 1-based document-order index; never null for a captured link. */
  position: number;
  linkType: LinkType;
  anchorText: string | null;
  isNofollow: boolean;
  isSponsored: boolean;
  isUgc: boolean;
  isImage: boolean;
  /** NOT_CHECKED (null) in paste mode and for unchecked links; NO_RESPONSE (0) when no HTTP response came back (lib/link-status.ts). */
  httpStatus: HttpStatus;
  /** The domain group that made this link internal (signed-in audits and checks); always null on the public surface. */
  matchedGroupName: string | null;
}

export interface LinkStats {
  total: number;
  internal: number;
  external: number;
  ignored: number;
  follow: number;
  nofollow: number;
  sponsored: number;
  ugc: number;
  broken: number;
}

export interface AnalysisResult {
  success: true;
  sanitizedHtml: string;
  links: AnalyzedLink[];
  stats: LinkStats;
  domain: string;
  url: string;
}

export interface AnalyzeDocumentInput {
  /** The HTML to analyse: pasted markup, or the serialized DOM after rendering. */
  html: string;
  /** The page URL links resolve against (paste mode: `https://{domain}/`; URL mode: the final URL). */
  pageUrl: string;
  /**
   * true in URL mode: the document was rendered with scripting on, so `<noscript>` content is not markup
   * and its links are not captured. false in paste mode (scripting off: noscript links count).
   */
  scripting: boolean;
  /** URL mode: the response's X-Robots-Tag said nofollow/none, so every link is nofollow. */
  headerNofollow?: boolean;
  /**
   * Signed-in analyses: the organization's domain groups as site → group name (sites as siteOf gives
   * them). A link to another site of the page's group is internal, with matchedGroupName set.
   */
  groups?: DomainGroups;
  /**
   * URL mode with signals: the nonce of the visibility pass (render/visibility.ts). Each link the pass marked
   * carries `data-linklens-hidden="<nonce>0|1"`; the extractor reads and removes it. Absent: hidden is null.
   */
  hiddenMarker?: string;
}

/** Site (registrable domain, or the host itself for IPs and single labels) → domain group name. */
export type DomainGroups = Readonly<Record<string, string>>;

/** What the document itself says about the page, beside its links (monitors and saved audits read it). */
export interface DocumentSignals {
  /** The document's title (whitespace collapsed, at most 500 characters), or null. */
  title: string | null;
  /** `<meta name="robots|googlebot">` says noindex or none. */
  noindex: boolean;
  /** The first `<link rel="canonical">`, resolved against the base URL, or null. */
  canonicalUrl: string | null;
  /** The document looks like a bot wall or challenge page (Cloudflare, DataDome, PerimeterX, …), not the page. */
  challenge: boolean;
}

/** The nearest landmark around a link (placement-verdict.md "Link signals"). */
export type Region = "main" | "header" | "nav" | "aside" | "footer";

/** What a signed-in analysis learns about each link beside its public fields. */
export interface LinkSignals {
  /** URL mode with signals: a link with the same resolved href is in the HTML as the server sent it; null when not known (paste mode, signals off, body unreadable). */
  inRawHtml: boolean | null;
  /** URL mode with signals: the link cannot be seen in the rendered page (render/visibility.ts); null: unknown. */
  hidden: boolean | null;
  /** The nearest ancestor landmark, both modes. */
  region: Region | null;
}

/** robots.txt's answer for Googlebot and the final URL (robots/robots-txt.ts). */
export type RobotsTxtAnswer = "allowed" | "disallowed" | "unavailable";

/** Where a noindex came from: the document's meta robots, or the response's X-Robots-Tag ("header" when both). */
export type NoindexSource = "meta" | "header";

/** What a signed-in analysis learns about the page beside its links. */
export interface PageSignals extends DocumentSignals {
  /** URL mode: the HTTP status of the page's final response; paste mode: null. X-Robots-Tag counts toward `noindex` in URL mode. */
  httpStatus: number | null;
  /** URL mode: the document's URL after redirects; paste mode: null. */
  finalUrl: string | null;
  /** Why `noindex` is true (null when it is false). */
  noindexSource: NoindexSource | null;
  /** URL mode with signals: robots.txt for Googlebot and the final URL; otherwise null. */
  robotsTxt: RobotsTxtAnswer | null;
  /**
   * URL mode with signals and crawler agents asked for: robots.txt's answer for each of them and the final
   * URL, keyed by the agent as asked, in the order asked (from the same reading as robotsTxt); otherwise null.
   */
  crawlers: Readonly<Record<string, RobotsTxtAnswer>> | null;
  /**
   * URL mode with signals: when the robots.txt behind robotsTxt and crawlers was fetched (epoch ms, this
   * process's clock; a cached reading keeps its fetch's time), so a reader can tell a newer reading from an
   * older one another instance still caches; otherwise null.
   */
  robotsTxtReadAt: number | null;
}

/** An analysis with its page signals (the analyzer front door's inspectHtml / inspectUrl). */
export interface PageReport {
  analysis: AnalysisResult;
  page: PageSignals;
  /** One per link of `analysis.links`, in the same order. */
  linkSignals: LinkSignals[];
  /**
   * URL mode with signals: resolved hrefs of the links of the raw HTML that the rendered page no longer
   * has (removed by script), in raw document order, each once; null when the raw HTML was not read.
   */
  removedByScript: string[] | null;
  /** URL mode with signals: the navigation response body, byte for byte as received (evidence needs the exact bytes); else null. */
  rawHtml: Buffer | null;
  /**
   * URL mode with `evidence`: the camera of the rendered page, still open (screenshots/camera.ts). The caller
   * must release() it, whatever happens; null otherwise.
   */
  camera: EvidenceCamera | null;
}

/** One analysed document: the public result and the signals beside it. */
export interface DocumentReport {
  analysis: AnalysisResult;
  signals: DocumentSignals;
  /** One per link of `analysis.links`, in the same order (inRawHtml null: the raw body is another job; hidden null unless marked). */
  linkSignals: LinkSignals[];
}

/**
 * Google's view (google-view.md §2): the page as Googlebot Smartphone rendered it (the front door's
 * renderGoogleView). `unavailable` when that render answered a non-2xx status, a bot challenge or not HTML,
 * or failed: a refusal of Googlebot says nothing about Google.
 */
export interface GoogleRender {
  status: "ok" | "unavailable";
  /** The status Googlebot's render got (also when refused); null when no HTTP answer came. */
  httpStatus: number | null;
  /** Where it ended after redirects; null when it did not load. */
  finalUrl: string | null;
  /** meta robots/googlebot or X-Robots-Tag (for Googlebot) say noindex; null when unavailable. */
  noindex: boolean | null;
  /** Its links, captured like every render's (shadow DOM flattened, positions in its own order); null when unavailable. */
  links: AnalyzedLink[] | null;
  renderedAt: Date;
  /**
   * With `evidence` and `ok`: the camera of Googlebot's page, still open (screenshots/camera.ts; positions are
   * those of `links`). The caller must release() it; null otherwise.
   */
  camera: EvidenceCamera | null;
}
