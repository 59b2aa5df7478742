import { inspectHtml, inspectUrl, type AnalysisResult, type PageReport } from "../analyzer";
import type { Config } from "../config";
import { log } from "../log";
import { botProtectionEnabled, consumeUrlBudget, isAutomatedUserAgent, rateLimitHeaders } from "../ratelimit";
import type { ParsedAnalyzeRequest } from "./analyze-request";
import { ApiError } from "@/lib/errors";

/**
 * Runs one accepted analyzer request. Paste mode goes straight to the analyzer; URL mode passes the
 * bot check and then spends one unit of the monthly budget before rendering (decisions.md order).
 *
 * `botCheck: false` is for callers that are automated by design (the MCP endpoint, docs/mcp.md "Bot policy"): a
 * User-Agent test would refuse all of them, so only the per-IP limit and the budget protect URL mode there.
 */
export async function runAnalysis(request: ParsedAnalyzeRequest, context: AnalysisContext): Promise<AnalysisResult> {
  return (await runInspection(request, context)).analysis;
}

/** Who asks, and how: the public analyzer's context. */
export interface AnalysisContext {
  userAgent: string | null;
  config: Config;
  requestId: string;
  clientKey?: string;
  signal?: AbortSignal;
  botCheck?: boolean;
  /** URL mode: also compute the link and page signals of placement-verdict.md (MCP find_link); default off. */
  signals?: boolean;
  /** URL mode with signals: the crawlers whose robots.txt access `page.crawlers` reports (google-view.md §3). */
  crawlers?: readonly string[];
}

/** runAnalysis, answering the whole report (page signals, link signals) beside the public result. */
export async function runInspection(request: ParsedAnalyzeRequest, context: AnalysisContext): Promise<PageReport> {
  const started = performance.now();
  const options = {
    settings: context.config,
    requestId: context.requestId,
    clientKey: context.clientKey,
    signal: context.signal,
  };
  let report: PageReport;
  if (request.mode === "paste") {
    report = await inspectHtml({ html: request.html, pageUrl: `https://${request.domain}/` }, options);
  } else {
    if (context.botCheck !== false && botProtectionEnabled() && isAutomatedUserAgent(context.userAgent)) {
      throw new ApiError("BOT_DETECTED", "URL mode is not available to automated clients.", {
        hint: 'Use paste mode: send the page\'s HTML as {"html": "…", "domain": "…"}, or run a signed-in audit.',
      });
    }
    const budget = await consumeUrlBudget();
    if (!budget.allowed) {
      throw new ApiError("RATE_LIMITED", "The monthly budget of URL-mode renders is spent.", {
        hint: "Use paste mode (send the page's HTML), which does not spend the budget, or wait for the reset at the start of next month.",
        headers: rateLimitHeaders(budget),
      });
    }
    report = await inspectUrl(request.url, {
      ...options,
      signals: context.signals === true,
      crawlers: context.crawlers,
    });
  }
  const result = report.analysis;
  // Sizes and counts only: never the pasted HTML or the page content.
  log.info(
    {
      requestId: context.requestId,
      mode: request.mode,
      htmlBytes: request.mode === "paste" ? Buffer.byteLength(request.html) : undefined,
      links: result.stats.total,
      broken: result.stats.broken,
      analysisMs: Math.round(performance.now() - started),
    },
    "analysis done",
  );
  return report;
}
