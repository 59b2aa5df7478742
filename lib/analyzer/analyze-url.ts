import type { Config } from "../config";
import { checkKey, checkLinks } from "./check-links";
import { closeBrowser } from "./browser";
import { renderPage } from "./render";
import { onShutdown } from "../shutdown";
import { computeStats } from "./stats";
import type { AnalysisResult } from "./types";
import type { AnalyzerPool } from "./worker-pool";

/**
 * URL mode: render the page behind the network guard, run the same pipeline as paste mode on the
 * rendered DOM (scripting on, so <noscript> content is not captured), then check every internal and
 * external link and fill in httpStatus and the broken count.
 */
export async function analyzeUrl(url: URL, deps: { pool: AnalyzerPool; config: Config }): Promise<AnalysisResult> {
  onShutdown("browser", closeBrowser);
  const rendered = await renderPage(url, { timeoutMs: deps.config.RENDER_TIMEOUT_MS });
  const analysis = await deps.pool.analyze({
    html: rendered.html,
    pageUrl: rendered.finalUrl,
    scripting: true,
    headerNofollow: rendered.headerNofollow,
  });

  const checkable = analysis.links.filter((link) => link.linkType !== "ignored").map((link) => link.href);
  const statuses = await checkLinks(checkable);
  const links = analysis.links.map((link) =>
    link.linkType === "ignored" ? link : { ...link, httpStatus: statuses.get(checkKey(link.href)) ?? null },
  );
  return { ...analysis, links, stats: computeStats(links) };
}
