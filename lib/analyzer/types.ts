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
  /** Domain groups belong to signed-in accounts: always null on the public surface. */
  matchedGroupName: null;
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
}
