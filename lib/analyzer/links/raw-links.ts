import { classifyHref, createPageContext } from "./classify";
import { extractLinks } from "./extract";
import { assertParseableNesting } from "../document/nesting";
import { parseHtml, releaseDocument } from "../document/parse";
import { flattenShadowTrees, mayHaveShadowRoots } from "../document/shadow-trees";

/**
 * The links of a page as the server sent it (placement-verdict.md `inRawHtml`): the navigation response
 * body parsed with the same extractor and base-URL rules as the rendered document, no script run, and
 * with URL mode's scripting-on reading of `<noscript>` (its content is text, as in the rendered page),
 * and declarative shadow roots attached and flattened like the rendered document's (google-view.md §1).
 * Runs in the worker pool, inside the same job as the rendered document.
 *
 * Answers the resolved hrefs in document order (duplicates kept), or null when the body cannot be
 * analysed (nested too deeply, or the parser gave up): then nothing is known about it.
 */
export function rawLinkHrefs(rawHtml: string, pageUrl: string): string[] | null {
  try {
    assertParseableNesting(rawHtml);
  } catch {
    return null;
  }
  let document: Document;
  try {
    document = parseHtml(rawHtml);
  } catch {
    return null;
  }
  try {
    // Declarative shadow roots are what the server sent too: their links count, in flattened order.
    if (mayHaveShadowRoots(rawHtml)) flattenShadowTrees(document);
    const extraction = extractLinks(document, true);
    const context = createPageContext(pageUrl, extraction.baseHref);
    return extraction.links.map((link) => classifyHref(link.href, context).href);
  } catch {
    return null;
  } finally {
    releaseDocument(document);
  }
}

/** The raw hrefs the rendered page no longer has, each once, in raw order. */
export function removedByScript(rawHrefs: readonly string[], renderedHrefs: ReadonlySet<string>): string[] {
  const removed = new Set<string>();
  for (const href of rawHrefs) if (!renderedHrefs.has(href)) removed.add(href);
  return [...removed];
}
