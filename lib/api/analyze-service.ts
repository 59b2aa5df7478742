import { analyzeUrl } from "../analyzer/analyze-url";
import { getAnalyzerPool, poolOptionsFrom } from "../analyzer/worker-pool";
import type { AnalysisResult } from "../analyzer/types";
import type { Config } from "../config";
import { log } from "../log";
import { botProtectionEnabled, consumeUrlBudget, isAutomatedUserAgent, rateLimitHeaders } from "../ratelimit";
import type { ParsedAnalyzeRequest } from "./analyze-request";
import { ApiError } from "./errors";

/**
 * Runs one accepted analyzer request. Paste mode goes straight to the worker pool; URL mode passes the
 * bot check and then spends one unit of the monthly budget before rendering (decisions.md order).
 */
export async function runAnalysis(
  request: ParsedAnalyzeRequest,
  context: { userAgent: string | null; config: Config; requestId: string; clientKey?: string },
): Promise<AnalysisResult> {
  const started = performance.now();
  const pool = getAnalyzerPool(poolOptionsFrom(context.config));
  let result: AnalysisResult;
  if (request.mode === "paste") {
    result = await pool.analyze({ html: request.html, pageUrl: `https://${request.domain}/`, scripting: false }, { clientKey: context.clientKey, lane: "paste" });
  } else {
    if (botProtectionEnabled() && isAutomatedUserAgent(context.userAgent)) {
      throw new ApiError("BOT_DETECTED", "URL mode is not available to automated clients.", {
        hint: "Use paste mode: send the page's HTML as {\"html\": \"…\", \"domain\": \"…\"}, or run a signed-in audit.",
      });
    }
    const budget = await consumeUrlBudget();
    if (!budget.allowed) {
      throw new ApiError("RATE_LIMITED", "The monthly budget of URL-mode renders is spent.", {
        hint: "Use paste mode (send the page's HTML), which does not spend the budget, or wait for the reset at the start of next month.",
        headers: rateLimitHeaders(budget),
      });
    }
    result = await analyzeUrl(request.url, { pool, config: context.config, requestId: context.requestId, clientKey: context.clientKey });
  }
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
  return result;
}
