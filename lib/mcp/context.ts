/**
 * What every tool call of one POST /mcp needs to know about the HTTP request it arrived in. The
 * endpoint is stateless, so this is built per request and closed over by the tools.
 */
export interface McpCallContext {
  /** The per-IP rate-limit bucket (lib/http/client-key.ts): the same one POST /api/demo/analyze spends. */
  clientKey: string;
  /** Aborts when the HTTP client disconnects. */
  signal?: AbortSignal;
  userAgent: string | null;
  requestId: string;
  /** Absolute URL of the /docs page; an Error body's `docs` adds the code's anchor. */
  docsPage: string;
}
