import { chooseAnchorText } from "./anchor";
import { classifyHref, createPageContext } from "./classify";
import { extractLinks } from "./extract";
import { assertParseableNesting } from "./nesting";
import { parseHtml, releaseDocument } from "./parse";
import { pruneTree } from "./prune";
import { relFlags } from "./robots";
import { sanitizeDocument } from "./sanitize";
import { computeStats } from "./stats";
import type { AnalysisResult, AnalyzeDocumentInput, AnalyzedLink } from "./types";

/**
 * Analyses one HTML document: captures and classifies every link, computes the statistics and
 * returns the sanitized snapshot. Pure and synchronous (no network, no Next.js): paste mode calls it
 * with the pasted markup, URL mode with the rendered DOM, then fills httpStatus and recomputes stats.
 *
 * `domain` is the page URL's host (already lowercased and punycoded by the URL parser); `url` is the
 * page URL exactly as given. Throws ApiError UNPROCESSABLE_PAGE for documents nested too deeply to
 * parse (see nesting.ts), and a TypeError if `pageUrl` is not an absolute URL (a caller bug).
 */
export function analyzeDocument(input: AnalyzeDocumentInput): AnalysisResult {
  const domain = new URL(input.pageUrl).hostname;
  assertParseableNesting(input.html);
  const document = parseHtml(input.html);
  try {
    const extraction = extractLinks(document, input.scripting);
    const context = createPageContext(input.pageUrl, extraction.baseHref);
    const pageNofollow = extraction.metaNofollow || input.headerNofollow === true;

    const links: AnalyzedLink[] = extraction.links.map((raw) => {
      const { href, linkType } = classifyHref(raw.href, context);
      return {
        href,
        position: raw.position,
        linkType,
        anchorText: chooseAnchorText(raw.anchor, raw.ariaLabel, raw.title),
        ...relFlags(raw.rel, pageNofollow),
        isImage: raw.anchor.isImage,
        httpStatus: null,
        matchedGroupName: null,
      };
    });

    pruneTree(document, extraction.fates);

    return {
      success: true,
      sanitizedHtml: sanitizeDocument(document),
      links,
      stats: computeStats(links),
      domain,
      url: input.pageUrl,
    };
  } finally {
    releaseDocument(document);
  }
}

