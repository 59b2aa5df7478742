import type { HttpStatus } from "@/lib/link-status";

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

/** What a signed-in analysis learns about the page beside its links. */
export interface PageSignals extends DocumentSignals {
  /** URL mode: the HTTP status of the page's final response; paste mode: null. X-Robots-Tag counts toward `noindex` in URL mode. */
  httpStatus: number | null;
}

/** An analysis with its page signals (the analyzer front door's inspectHtml / inspectUrl). */
export interface PageReport {
  analysis: AnalysisResult;
  page: PageSignals;
}

/** One analysed document: the public result and the signals beside it. */
export interface DocumentReport {
  analysis: AnalysisResult;
  signals: DocumentSignals;
}
