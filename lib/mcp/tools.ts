import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ApiError } from "../errors";
import type { Config } from "../config";
import { analyzeForTool, compactAnalysis, describeAnalysis, inspectForFindLink } from "./analyze";
import type { McpCallContext } from "./context";
import { findLink, parseTarget } from "./find-link";
import { toolError, toolSuccess } from "./results";
import { AnalyzeHtmlInput, AnalyzePageInput, FindLinkInput } from "./schemas";
import { CRAWLER_AGENTS } from "../schemas/crawlers";

/**
 * The three LinkLens tools. Descriptions are written for a model choosing between tools: what each
 * answers, when to prefer another, and what it costs (limits come from the running configuration).
 */
export function registerTools(server: McpServer, context: McpCallContext, config: Config): void {
  const perMinute = `Every LinkLens tool call counts against one limit of ${config.RATE_LIMIT_PER_MINUTE} calls per minute per client IP, shared with the HTTP API; over it you get RATE_LIMITED with the time to retry.`;
  // MCP_URL_MODE=off: say so up front, so a model does not spend calls finding out.
  const urlModeOff =
    config.MCP_URL_MODE === "off"
      ? ["URL mode is turned off on this server: a url answers BOT_DETECTED; pass the page's HTML instead."]
      : [];
  const renderCost = `Slow (typically a few seconds; a slow page with many links can take 30 s) and spends one unit of the service's monthly budget of ${config.DEMO_URL_MONTHLY_BUDGET} URL renders; when the budget is spent you get RATE_LIMITED and should use the html variant.`;
  const pasteCost = `Fast and free of render budget; html up to ${config.MAX_HTML_BYTES.toLocaleString("en-US")} UTF-8 bytes (more is PAYLOAD_TOO_LARGE).`;

  server.registerTool(
    "analyze_page",
    {
      title: "Analyze the links of a web page",
      description: [
        ...urlModeOff,
        "Renders a public web page in headless Chromium (after its JavaScript runs) and returns every link on it: href, position (1-based, document order), linkType (internal, external, ignored), nofollow/sponsored/ugc flags, anchor text, image link, and the HTTP status of each linked URL (broken links), plus counts (stats).",
        "Use it to audit one page's links. To check whether one particular link is on a page, use find_link (same cost, shorter answer). If you already have the page's HTML, analyze_html is cheaper.",
        `Cost: ${renderCost} ${perMinute}`,
        "Only public pages: local or private addresses are refused (INVALID_URL, BLOCKED_URL). Results are not saved.",
      ].join(" "),
      inputSchema: AnalyzePageInput,
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
    },
    async ({ url, includeSnapshot }) => {
      try {
        const result = compactAnalysis(await analyzeForTool({ url }, context), includeSnapshot ?? false);
        return toolSuccess(result, describeAnalysis(result, "url"));
      } catch (error) {
        return toolError(error, context);
      }
    },
  );

  server.registerTool(
    "analyze_html",
    {
      title: "Analyze the links of HTML you have",
      description: [
        "Classifies every link in HTML you supply, without fetching anything: href resolved against https://{domain}/, position, linkType (internal, external, ignored), nofollow/sponsored/ugc flags (including a robots meta nofollow), anchor text, image link, plus counts (stats).",
        "Scripts do not run and linked URLs are not checked (httpStatus is null). Use it when you already have the page source, or when analyze_page is refused or over budget.",
        `Cost: ${pasteCost} ${perMinute}`,
      ].join(" "),
      inputSchema: AnalyzeHtmlInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ html, domain, includeSnapshot }) => {
      try {
        const body = domain === undefined ? { html } : { html, domain };
        const result = compactAnalysis(await analyzeForTool(body, context), includeSnapshot ?? false);
        return toolSuccess(result, describeAnalysis(result, "paste"));
      } catch (error) {
        return toolError(error, context);
      }
    },
  );

  server.registerTool(
    "find_link",
    {
      title: "Find a link on a page (placement check)",
      description: [
        ...urlModeOff,
        'Answers "is my link on this page, and is it followed?" in one call: give the page (url, or its html) and the target (your URL or domain).',
        "Returns found, and each matching link with position, anchor text, nofollow/sponsored/ugc flags, followed (true when none of them applies), HTTP status and signals (inRawHtml: in the HTML the server sent, false when only scripts add it; hidden: cannot be seen in the rendered page; region: main, header, nav, aside or footer; inGoogleView: the link is also in Googlebot's render of the page; with html, inRawHtml, hidden and inGoogleView are null); when nothing matches, found is false and sameHostLinks lists links to the target's host that did not match exactly.",
        'verdict answers "does it still pass value?" for the best match (the first that counts, else the first at risk): value counts, at_risk or does_not_count, and reasons in order (does_not_count: broken_target, nofollow, sponsored, ugc, hidden, page_noindex, robots_disallowed, not_in_google_view; at_risk: script_only, canonical_elsewhere, page_redirected, boilerplate_region). page has the page\'s noindex, canonical and, with url, robots.txt for Googlebot and the final URL.',
        "With url, the page is also rendered as Googlebot Smartphone (its user agent, a phone viewport): page.googleView is {status: ok or unavailable, httpStatus, finalUrl, noindex, linkCount, renderedAt}; unavailable (the page refused Googlebot's user agent, a bot challenge, not HTML, or the render failed) says nothing about Google and gives no reason. not_in_google_view: the link is there for visitors but not in Googlebot's render; page_noindex also when only Googlebot's render is noindex; when nothing matches for visitors but Googlebot's render has the link, the summary says the page shows it only to Googlebot (cloaking).",
        `With url, page.crawlers says for each of ${CRAWLER_AGENTS.join(", ")} whether robots.txt lets it crawl the page: allowed, disallowed, or unavailable when robots.txt could not be read (AI crawlers blocked do not change the verdict, which is about Google); with html it is null.`,
        `Cost: with url, ${renderCost} With html: ${pasteCost} ${perMinute}`,
      ].join(" "),
      inputSchema: FindLinkInput,
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
    },
    async ({ url, html, domain, target, match }) => {
      try {
        if (url !== undefined && domain !== undefined) {
          throw new ApiError("INVALID_REQUEST", "domain applies to html only; with url the page's own host is used.");
        }
        // A bad target is refused before anything is rendered or counted.
        const wanted = parseTarget(target, match);
        const body = Object.fromEntries(
          Object.entries({ url, html, domain }).filter(([, value]) => value !== undefined),
        );
        const { report, google } = await inspectForFindLink(body, context);
        const result = findLink(report, wanted, url ?? null, google);
        return toolSuccess(result, result.summary);
      } catch (error) {
        return toolError(error, context);
      }
    },
  );
}
