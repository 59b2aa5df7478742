import { chooseAnchorText } from "./links/anchor";
import { documentLooksLikeChallenge } from "./challenge";
import { classifyHref, createPageContext, siteOf, type PageContext } from "./links/classify";
import { extractLinks, type Extraction } from "./links/extract";
import { assertParseableNesting } from "./document/nesting";
import { parseHtml, releaseDocument } from "./document/parse";
import { flattenShadowTrees, mayHaveShadowRoots } from "./document/shadow-trees";
import { pruneTree } from "./document/prune";
import { relFlags } from "./robots/directives";
import { sanitizeDocument } from "./document/sanitize";
import { computeStats } from "./links/stats";
import { Stopwatch, type StageTimings } from "./timings";
import type {
  AnalysisResult,
  AnalyzeDocumentInput,
  AnalyzedLink,
  DocumentReport,
  DocumentSignals,
  DomainGroups,
  LinkSignals,
} from "./types";

const MAX_TITLE_LENGTH = 500;

/**
 * Analyses one HTML document: captures and classifies every link (shadow trees flattened in place:
 * document/shadow-trees.ts), computes the statistics and
 * returns the sanitized snapshot. Pure and synchronous (no network, no Next.js): paste mode calls it
 * with the pasted markup, URL mode with the rendered DOM, then fills httpStatus and recomputes stats.
 *
 * `domain` is the page URL's host (already lowercased and punycoded by the URL parser); `url` is the
 * page URL exactly as given. Throws ApiError UNPROCESSABLE_PAGE for documents nested too deeply to
 * parse (see document/nesting.ts), and a TypeError if `pageUrl` is not an absolute URL (a caller bug).
 * `timings`, when given, receives the time of each stage (timings.ts); `onStage` runs after each one.
 */
export function analyzeDocument(
  input: AnalyzeDocumentInput,
  timings?: StageTimings,
  onStage?: () => void,
): AnalysisResult {
  return inspectDocument(input, timings, onStage).analysis;
}

/** analyzeDocument, plus what the document says about the page (title, noindex, canonical, challenge). */
export function inspectDocument(
  input: AnalyzeDocumentInput,
  timings?: StageTimings,
  onStage?: () => void,
  /** Runs the document's release (document/parse.ts releaseDocument) later, off the answer's path; default now. */
  deferRelease?: (release: () => void) => void,
): DocumentReport {
  const clock = new Stopwatch(timings, onStage);
  const domain = new URL(input.pageUrl).hostname;
  assertParseableNesting(input.html);
  clock.lap("nesting");
  const document = parseHtml(input.html);
  clock.lap("parse");
  try {
    // Shadow roots are part of the page, in flattened order (google-view.md §1): declarative ones in
    // pasted markup, every one of the rendered page in URL mode's serialization.
    if (mayHaveShadowRoots(input.html)) {
      flattenShadowTrees(document);
      clock.lap("flatten");
    }
    const extraction = extractLinks(document, input.scripting, input.hiddenMarker);
    clock.lap("extract");
    const context = createPageContext(input.pageUrl, extraction.baseHref);
    const pageNofollow = extraction.metaNofollow || input.headerNofollow === true;
    const groupOf = groupClassifier(context, input.groups);

    const links: AnalyzedLink[] = extraction.links.map((raw) => {
      const { href, linkType, hostname } = classifyHref(raw.href, context);
      const matchedGroupName = linkType === "external" && hostname !== null ? groupOf(hostname) : null;
      return {
        href,
        position: raw.position,
        linkType: matchedGroupName === null ? linkType : "internal",
        anchorText: chooseAnchorText(raw.anchor, raw.ariaLabel, raw.title),
        ...relFlags(raw.rel, pageNofollow),
        isImage: raw.anchor.isImage,
        httpStatus: null,
        matchedGroupName,
      };
    });

    const signals = readSignals(document, input.html, extraction, context);
    clock.lap("classify");
    pruneTree(document, extraction.fates);
    clock.lap("prune");
    const sanitizedHtml = sanitizeDocument(document, clock);

    // inRawHtml comes from the raw body's own job (links/raw-links.ts); the caller fills it in.
    const linkSignals: LinkSignals[] = extraction.links.map((raw) => ({
      inRawHtml: null,
      hidden: raw.hidden,
      region: raw.region,
    }));

    return {
      analysis: {
        success: true,
        sanitizedHtml,
        links,
        stats: computeStats(links),
        domain,
        url: input.pageUrl,
      },
      signals,
      linkSignals,
    };
  } finally {
    if (deferRelease) deferRelease(() => releaseDocument(document));
    else releaseDocument(document);
    clock.lap("release");
  }
}

/**
 * The domain-group rule of docs/spec/account-api.md: a link to another site is internal when both sites are in
 * the same group of the organization; the answer is that group's name, else null. Without groups (the
 * public analyzer) every answer is null.
 */
function groupClassifier(context: PageContext, groups: DomainGroups | undefined): (hostname: string) => string | null {
  if (!groups) return () => null;
  const lookup = new Map(Object.entries(groups));
  const pageGroup = lookup.get(siteOf(context.pageHost));
  if (pageGroup === undefined) return () => null;
  return (hostname) => (lookup.get(siteOf(hostname)) === pageGroup ? pageGroup : null);
}

function readSignals(document: Document, html: string, extraction: Extraction, context: PageContext): DocumentSignals {
  const rawTitle = document.title.replace(/\s+/g, " ").trim();
  const title = rawTitle === "" ? null : rawTitle.slice(0, MAX_TITLE_LENGTH);
  const canonical =
    extraction.canonicalHref === null ? null : URL.parse(extraction.canonicalHref.trim(), context.baseUrl);
  return {
    title,
    noindex: extraction.metaNoindex,
    canonicalUrl:
      canonical && (canonical.protocol === "http:" || canonical.protocol === "https:") ? canonical.href : null,
    challenge: documentLooksLikeChallenge(title, html),
  };
}
