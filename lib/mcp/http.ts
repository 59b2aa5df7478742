import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { requestBodyTooLargeMessage } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { clientKeyOf } from "../http/client-key";
import { toErrorBody } from "../http/error-body";
import { ApiError } from "../errors";
import { docsPageUrl, siteOrigin } from "../http/origin";
import { requestIdOf } from "../http/request-id";
import { readBodyBytes, rejectDeepJson } from "../http/read-body";
import { getConfig } from "../config";
import { log } from "../log";
import type { McpCallContext } from "./context";
import { createMcpServer } from "./server";

/** The analyzer's body cap (decisions.md: MAX_HTML_BYTES plus 64 KiB), so analyze_html takes what the API takes. */
const BODY_OVERHEAD_BYTES = 64 * 1024;
const NO_STORE = { "Cache-Control": "no-store" };

/**
 * One stateless Streamable HTTP exchange: a fresh server and transport per POST, JSON answers (no SSE:
 * nothing is streamed, and a plain JSON body is easier on proxies), closed when the answer is ready.
 */
export async function handleMcpPost(request: Request): Promise<Response> {
  const requestId = requestIdOf(request);
  let server: McpServer | undefined;
  try {
    const context: McpCallContext = {
      clientKey: clientKeyOf(request),
      signal: request.signal,
      userAgent: request.headers.get("user-agent"),
      requestId,
      docsPage: docsPageUrl(siteOrigin(request)),
    };
    const maxBytes = getConfig().MAX_HTML_BYTES + BODY_OVERHEAD_BYTES;
    // The transport parses the body itself: it is read here first, so a body nested too deep is refused
    // unparsed, as on every other route, and the transport gets the same bytes.
    const body = await readBodyBytes(
      request,
      maxBytes,
      () => new ApiError("PAYLOAD_TOO_LARGE", requestBodyTooLargeMessage(maxBytes)),
    );
    rejectDeepJson(new TextDecoder("utf-8").decode(body));
    server = createMcpServer(context);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBytes,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(new Request(request, { body: body.byteLength > 0 ? body : null }));
    for (const [name, value] of Object.entries(NO_STORE)) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof ApiError && error.code === "PAYLOAD_TOO_LARGE")
      return jsonRpcError(413, -32000, error, request);
    if (error instanceof ApiError && error.code === "INVALID_REQUEST") return jsonRpcError(400, -32600, error, request);
    log.error({ requestId, err: error, path: "/mcp" }, "MCP request failed");
    return jsonRpcError(500, -32603, new ApiError("INTERNAL_ERROR", "Something went wrong on our side."), request);
  } finally {
    // Closing the server closes its transport; the JSON answer is complete by now.
    await server?.close().catch(() => undefined);
  }
}

/**
 * GET, DELETE and every other method: 405 with Allow: POST. The endpoint is stateless, so it has no
 * server-to-client event stream to open (GET) and no session to end (DELETE); the transport
 * specification lets a server answer 405 to both, and MCP clients carry on with POST alone.
 */
export function mcpMethodNotAllowed(request: Request): Response {
  const error = new ApiError(
    "METHOD_NOT_ALLOWED",
    `${request.method} is not supported on /mcp: this MCP endpoint is stateless and answers POST only.`,
    {
      hint: "Send JSON-RPC messages with POST (Content-Type: application/json, Accept: application/json, text/event-stream).",
      headers: { Allow: "POST" },
    },
  );
  return jsonRpcError(405, -32000, error, request);
}

/**
 * A transport-level failure in JSON-RPC form (what MCP clients parse), with LinkLens's Error body as
 * `error.data` so the errorCode and hint are the same as elsewhere.
 */
function jsonRpcError(status: number, code: number, error: ApiError, request: Request): Response {
  const { body, headers } = toErrorBody(error, docsPageUrl(siteOrigin(request)));
  const payload = { jsonrpc: "2.0", error: { code, message: body.error, data: body }, id: null };
  const responseBody = request.method === "HEAD" ? null : JSON.stringify(payload);
  return new Response(responseBody, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...NO_STORE, ...headers },
  });
}
