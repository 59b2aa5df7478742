import { parseAnalyzeRequest } from "../api/analyze-request";
import { runInspection } from "../api/analyze-service";
import { ApiError } from "../errors";
import { renderGoogleView, type AnalysisResult, type AnalyzedLink, type LinkStats, type PageReport } from "../analyzer";
import { readingOf, type GoogleReading } from "../verdict";
import { getConfig } from "../config";
import { CRAWLER_AGENTS } from "../schemas/crawlers";
import { checkRequestLimit, rateLimitHeaders } from "../ratelimit";
import type { McpCallContext } from "./context";

/** What the analysis tools return: the analyzer's result, the snapshot only when asked for. */
export interface CompactAnalysis {
  success: true;
  url: string;
  domain: string;
  stats: LinkStats;
  links: AnalyzedLink[];
  sanitizedHtml?: string;
}

/**
 * One analysis for a tool call, in the order POST /api/demo/analyze keeps: the per-IP limit (same
 * bucket, same store), then the body rules of parseAnalyzeRequest, then runAnalysis (network guard and
 * URL budget). Each tool call counts as one analyzer request; protocol messages (initialize,
 * tools/list) do not, as the discovery routes do not.
 *
 * The User-Agent bot check is off here: every MCP client is automated by definition (docs/mcp.md "Bot policy"). An
 * operator who wants URL mode for people only sets MCP_URL_MODE=off, and URL calls answer BOT_DETECTED.
 */
export async function analyzeForTool(body: Record<string, unknown>, context: McpCallContext): Promise<AnalysisResult> {
  return (await inspectForTool(body, context, false)).analysis;
}

/** analyzeForTool answering the whole report; `signals`: URL mode also computes placement-verdict.md's signals (find_link). */
export async function inspectForTool(
  body: Record<string, unknown>,
  context: McpCallContext,
  signals: boolean,
): Promise<PageReport> {
  const config = getConfig();
  const limit = await checkRequestLimit(context.clientKey);
  if (!limit.allowed) {
    throw new ApiError("RATE_LIMITED", `Too many requests: the limit is ${limit.limit} per minute per client.`, {
      headers: rateLimitHeaders(limit),
    });
  }
  const request = parseAnalyzeRequest(body, {
    maxHtmlBytes: config.MAX_HTML_BYTES,
    allowPrivateHosts: config.ALLOW_PRIVATE_HOSTS,
  });
  if (request.mode === "url" && config.MCP_URL_MODE === "off") {
    throw new ApiError("BOT_DETECTED", "URL mode is turned off for MCP clients on this server.", {
      hint: "Fetch the page yourself and pass its HTML: analyze_html, or find_link with html instead of url.",
    });
  }
  return runInspection(request, {
    userAgent: context.userAgent,
    config,
    requestId: context.requestId,
    clientKey: context.clientKey,
    signal: context.signal,
    botCheck: false,
    signals,
    // find_link's page carries crawler access (google-view.md §3), from the same robots.txt reading.
    crawlers: signals ? CRAWLER_AGENTS : undefined,
  });
}

/**
 * find_link's page: the analysis with its signals and, with url, Google's view (google-view.md §2), rendered
 * once after the visitor's render (the request was accepted and counted once, by inspectForTool).
 */
export async function inspectForFindLink(
  body: Record<string, unknown>,
  context: McpCallContext,
): Promise<{ report: PageReport; google: GoogleReading | null }> {
  const report = await inspectForTool(body, context, true);
  if (typeof body.url !== "string") return { report, google: null };
  const google = await renderGoogleView(new URL(body.url), {
    settings: getConfig(),
    requestId: context.requestId,
    clientKey: context.clientKey,
    signal: context.signal,
  });
  return { report, google: readingOf(google) };
}

/** Drops the snapshot unless asked for: it is most of the answer's size and rarely what a model needs. */
export function compactAnalysis(result: AnalysisResult, includeSnapshot: boolean): CompactAnalysis {
  const { success, url, domain, stats, links } = result;
  return includeSnapshot
    ? { success, url, domain, stats, links, sanitizedHtml: result.sanitizedHtml }
    : { success, url, domain, stats, links };
}

/** One line a model can read without parsing the JSON. */
export function describeAnalysis(result: CompactAnalysis, mode: "url" | "paste"): string {
  const s = result.stats;
  const broken = mode === "url" ? `; ${s.broken} broken` : "; statuses not checked (paste mode fetches nothing)";
  return `${result.url}: ${s.total} links (${s.internal} internal, ${s.external} external, ${s.ignored} ignored); ${s.follow} follow, ${s.nofollow} nofollow, ${s.sponsored} sponsored, ${s.ugc} ugc${broken}.`;
}
