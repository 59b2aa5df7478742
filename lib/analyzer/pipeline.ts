import { chooseAnchorText } from "./anchor";
import { classifyHref, createPageContext } from "./classify";
import { extractLinks } from "./extract";
import { assertParseableNesting } from "./nesting";
import { parseHtml, releaseDocument } from "./parse";
import { pruneTree } from "./prune";
import { relFlags } from "./robots";
import { sanitizeDocument } from "./sanitize";
import { computeStats } from "./stats";
import { Stopwatch, type StageTimings } from "./timings";
import type { AnalysisResult, AnalyzeDocumentInput, AnalyzedLink } from "./types";

/**
 * Analyses one HTML document: captures and classifies every link, computes the statistics and
 * returns the sanitized snapshot. Pure and synchronous (no network, no Next.js): paste mode calls it
 * with the pasted markup, URL mode with the rendered DOM, then fills httpStatus and recomputes stats.
 *
 * `domain` is the page URL's host (already lowercased and punycoded by the URL parser); `url` is the
 * page URL exactly as given. Throws ApiError UNPROCESSABLE_PAGE for documents nested too deeply to
 * parse (see nesting.ts), and a TypeError if `pageUrl` is not an absolute URL (a caller bug).
 * `timings`, when given, receives the time of each stage (timings.ts); `onStage` runs after each one.
 */
export function analyzeDocument(input: AnalyzeDocumentInput, timings?: StageTimings, onStage?: () => void): AnalysisResult {
  const clock = new Stopwatch(timings, onStage);
  const domain = new URL(input.pageUrl).hostname;
  assertParseableNesting(input.html);
  clock.lap("nesting");
  const document = parseHtml(input.html);
  clock.lap("parse");
  try {
    const extraction = extractLinks(document, input.scripting);
    clock.lap("extract");
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

    clock.lap("classify");
    pruneTree(document, extraction.fates);
    clock.lap("prune");
    const sanitizedHtml = sanitizeDocument(document, clock);

    return {
      success: true,
      sanitizedHtml,
      links,
      stats: computeStats(links),
      domain,
      url: input.pageUrl,
    };
  } finally {
    releaseDocument(document);
    clock.lap("release");
  }
}

