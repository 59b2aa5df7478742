import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { API_VERSION, SERVICE_NAME } from "../api/catalog";
import { getConfig } from "../config";
import type { McpCallContext } from "./context";
import { registerTools } from "./tools";

/** The most array elements plus object members one tools/call may carry: ours take five scalars. */
const MAX_TOOL_INPUT_ELEMENTS = 64;

const INSTRUCTIONS = [
  "LinkLens captures and classifies the links of one web page: internal/external/ignored, nofollow/sponsored/ugc, anchor text, position and (for URLs) each link's HTTP status.",
  "To verify a backlink placement use find_link; to audit a page use analyze_page (renders the URL) or analyze_html (HTML you already have: cheaper, nothing fetched).",
  "Results are compact (no page snapshot) unless includeSnapshot is true. Errors carry errorCode and hint; on RATE_LIMITED wait retryAfterSeconds. Not for web-wide backlink discovery, rank tracking or sitewide crawls.",
].join(" ");

/** A fresh MCP server for one request (the endpoint is stateless). */
export function createMcpServer(context: McpCallContext): McpServer {
  const server = new McpServer(
    { name: SERVICE_NAME.toLowerCase(), title: SERVICE_NAME, version: API_VERSION },
    { instructions: INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
  );
  registerTools(server, context, getConfig());
  return server;
}
