import type { Config } from "../config";
import { log } from "../log";
import { onShutdown } from "../shutdown";
import { closeBrowser } from "./browser";
import { checkKey, checkLinks } from "./check-links";
import { renderPage } from "./render";
import { analysisResolver, type Resolver } from "../net/resolve";
import { computeStats } from "./stats";
import type { AnalysisResult } from "./types";
import type { AnalyzerPool } from "./worker-pool";

/**
 * URL mode: render the page behind the network guard, run the same pipeline as paste mode on the
 * rendered DOM (scripting on, so <noscript> content is not captured), then check every internal and
 * external link and fill in httpStatus and the broken count.
 */
export async function analyzeUrl(url: URL, deps: { pool: AnalyzerPool; config: Config; requestId?: string; resolver?: Resolver; clientKey?: string }): Promise<AnalysisResult> {
  onShutdown("browser", closeBrowser);
  const started = performance.now();
  // One DNS answer per host for this analysis, shared by the render's proxy and the link checker.
  const resolver = analysisResolver(deps.resolver);
  const rendered = await renderPage(url, { timeoutMs: deps.config.RENDER_TIMEOUT_MS, resolver });
  const renderedAt = performance.now();
  const analysis = await deps.pool.analyze(
    { html: rendered.html, pageUrl: rendered.finalUrl, scripting: true, headerNofollow: rendered.headerNofollow },
    // The URL lane: a render already paid for must not wait behind pastes.
    { clientKey: deps.clientKey, lane: "url" },
  );
  const analysedAt = performance.now();

  const checkable = analysis.links.filter((link) => link.linkType !== "ignored").map((link) => link.href);
  const statuses = await checkLinks(checkable, { config: deps.config, resolver });
  const links = analysis.links.map((link) =>
    link.linkType === "ignored" ? link : { ...link, httpStatus: statuses.get(checkKey(link.href)) ?? null },
  );
  log.info(
    {
      requestId: deps.requestId,
      renderMs: Math.round(renderedAt - started),
      parseMs: Math.round(analysedAt - renderedAt),
      checkMs: Math.round(performance.now() - analysedAt),
      checked: statuses.size,
      renderedBytes: rendered.html.length,
    },
    "url mode timings",
  );
  return { ...analysis, links, stats: computeStats(links) };
}
