import { readFileSync } from "node:fs";
import path from "node:path";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import type { Renderer } from "@/lib/analyzer/render/renderer";
import type { CorpusSite } from "./corpus-site";

/**
 * Real-page agreement between URL mode and paste mode: the same saved page analysed from its markup
 * (paste mode, scripting off) and rendered from 127.0.0.1 (URL mode, its inline scripts run, every
 * outside request fails). The two never agree exactly (a `<noscript>` link counts only in paste mode, a
 * link an inline script adds only in URL mode), but a render that stops before the page's scripts are
 * done loses links, and the agreement drops. So it is the accuracy guard of the settle rules
 * (lib/analyzer/render/settle.ts): tests/integration/url-mode/agreement.test.ts and the benchmark hold it at
 * its recorded level or better.
 */

export interface PageAgreement {
  file: string;
  /** Links in paste mode, in URL mode, and in both (as a multiset of hrefs). */
  paste: number;
  url: number;
  common: number;
  /** common / max(paste, url): 1 when both modes found the same links. */
  ratio: number;
}

/** The multiset of hrefs of an analysis. */
function hrefs(links: ReadonlyArray<{ href: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { href } of links) counts.set(href, (counts.get(href) ?? 0) + 1);
  return counts;
}

/** Analyses one corpus page both ways and compares their links. */
export async function pageAgreement(
  renderer: Renderer,
  site: CorpusSite,
  dir: string,
  file: string,
): Promise<PageAgreement> {
  const html = readFileSync(path.join(dir, file), "utf8");
  // Both modes resolve against the URL the page is served from, so their hrefs compare as they are.
  const pasted = analyzeDocument({ html, pageUrl: site.url(file), scripting: false });
  const rendered = await renderer.render(new URL(site.url(file)));
  const viaUrl = analyzeDocument({ html: rendered.html, pageUrl: rendered.finalUrl, scripting: true });
  const left = hrefs(pasted.links);
  const right = hrefs(viaUrl.links);
  let common = 0;
  for (const [href, count] of left) common += Math.min(count, right.get(href) ?? 0);
  const paste = pasted.links.length;
  const url = viaUrl.links.length;
  return { file, paste, url, common, ratio: Math.max(paste, url) === 0 ? 1 : common / Math.max(paste, url) };
}

/** The mean ratio of a set of pages. */
export function meanRatio(pages: readonly PageAgreement[]): number {
  return pages.length === 0 ? 1 : pages.reduce((sum, page) => sum + page.ratio, 0) / pages.length;
}
