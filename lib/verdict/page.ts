import { crawlersOf } from "../schemas/crawlers";
import type { GoogleView } from "../schemas/google-view";
import type { PageSignals } from "../schemas/verdict";
import { canonicalElsewhere } from "./url";

/** What the analyzer reports about a page (its PageSignals), as far as the account API shows it. */
export interface ObservedPage {
  httpStatus: number | null;
  finalUrl: string | null;
  noindex: boolean;
  noindexSource: PageSignals["noindexSource"];
  canonicalUrl: string | null;
  robotsTxt: PageSignals["robotsTxt"];
  /** Each crawler's robots.txt answer, keyed by agent (any order); null when not read. */
  crawlers: Readonly<Record<string, string>> | null;
}

/**
 * Audit.page and the page part of Monitor.page (placement-verdict.md "Page signals"). Paste mode has no
 * final URL: then only noindex, noindexSource and canonicalUrl are known, the rest is null.
 */
export function pageSignals(page: ObservedPage, googleView: GoogleView | null = null): PageSignals {
  const url = page.finalUrl !== null;
  return {
    httpStatus: url ? page.httpStatus : null,
    finalUrl: page.finalUrl,
    noindex: page.noindex,
    noindexSource: page.noindex ? page.noindexSource : null,
    canonicalUrl: page.canonicalUrl,
    canonicalElsewhere: canonicalElsewhere(page.canonicalUrl, page.finalUrl),
    robotsTxt: url ? page.robotsTxt : null,
    crawlers: url ? crawlersOf(page.crawlers) : null,
    googleView: url ? googleView : null,
  };
}
