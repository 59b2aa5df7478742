/**
 * What the discovery documents (/llms.txt, /docs, the Product document, docs/mcp.md) say about the MCP
 * endpoint, in one place. The tool names must match lib/mcp/tools.ts (tests/integration/mcp.test.ts
 * compares them with tools/list).
 */

export const MCP_PATH = "/mcp";

export const MCP_TOOLS = [
  {
    name: "analyze_page",
    args: "{url, includeSnapshot?}",
    summary:
      "renders a public URL and returns every link with its classification, rel flags, anchor text, position and HTTP status, plus stats; spends URL-render budget",
  },
  {
    name: "analyze_html",
    args: "{html, domain?, includeSnapshot?}",
    summary: "classifies the links of HTML you already have; nothing is fetched and no budget is spent",
  },
  {
    name: "find_link",
    args: "{url | html, target, domain?, match?}",
    summary:
      "is my link on this page, is it followed, and does it still count? The links matching target (match: exact, prefix or domain) with rel flags, anchor text, position, status and signals (inRawHtml, hidden, region), the best match's verdict (counts, at_risk or does_not_count, with reasons such as hidden, nofollow, page_noindex, robots_disallowed, script_only, canonical_elsewhere), the page's noindex, canonical, robots.txt and crawlers (robots.txt access for Googlebot, Bingbot and AI crawlers such as GPTBot, ClaudeBot, PerplexityBot and CCBot); or found: false",
  },
] as const;

/** Facts an agent or operator needs, one sentence each; `urlMode` is the server's MCP_URL_MODE. */
export function mcpFacts(origin: string, urlMode: "on" | "off"): string[] {
  return [
    `Endpoint: ${origin}${MCP_PATH}, Model Context Protocol over Streamable HTTP, stateless (POST only: GET and DELETE answer 405, there is no event stream or session). No key or account.`,
    "Results are compact (stats and links, no page snapshot) unless includeSnapshot is true; every result has structuredContent and the same JSON as text.",
    "Tool errors come back as results with isError: true and the errorCode and hint of the HTTP API's Error body; RATE_LIMITED adds retryAfterSeconds and retryAt.",
    "Every tool call counts against the per-IP limit shared with POST /api/demo/analyze; analyze_page and find_link with url spend the same monthly URL budget and pass the same network guard.",
    urlMode === "on"
      ? "MCP calls are not bot-checked: an MCP client is automated by definition, so URL mode is open to agents here, and the per-IP limit and the monthly budget are what bound it."
      : "URL mode is turned off for MCP clients on this server: analyze_page and find_link with url answer BOT_DETECTED; pass the page's HTML instead.",
  ];
}

/** The block a user pastes into an MCP client's configuration. */
export function mcpClientConfig(origin: string): string {
  return JSON.stringify({ mcpServers: { linklens: { type: "http", url: `${origin}${MCP_PATH}` } } }, null, 2);
}
