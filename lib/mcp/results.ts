import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toErrorBody } from "../http/error-body";
import type { ErrorBody } from "../errors";
import { log } from "../log";
import type { McpCallContext } from "./context";

/**
 * How tool answers look: structuredContent for programs, and text for models and for clients that
 * only read `content` (a one-line summary, then the same JSON, as the MCP spec recommends).
 *
 * The tools declare no outputSchema on purpose: errors carry structuredContent too, and the SDK's
 * client validates any structuredContent against outputSchema, errors included.
 */
export function toolSuccess(structured: object, summary: string): CallToolResult {
  return {
    structuredContent: structured as Record<string, unknown>,
    content: [
      { type: "text", text: summary },
      { type: "text", text: JSON.stringify(structured) },
    ],
  };
}

/** The Error body of the HTTP API, plus when to retry a RATE_LIMITED call (headers do not reach a model). */
export interface ToolErrorBody extends ErrorBody {
  retryAfterSeconds?: number;
  /** ISO 8601, UTC. */
  retryAt?: string;
}

/**
 * Any thrown value as an MCP tool error (isError: true) with the errorCode and hint the HTTP API would
 * answer. Unknown errors become INTERNAL_ERROR without internals and are logged with the request id.
 */
export function toolError(error: unknown, context: McpCallContext, nowMs: number = Date.now()): CallToolResult {
  const { body, headers, expected } = toErrorBody(error, context.docsPage);
  if (!expected)
    log.error({ requestId: context.requestId, err: error, path: "/mcp" }, "unexpected error in an MCP tool");
  const structured: ToolErrorBody = { ...body };
  let retry = "";
  if (body.errorCode === "RATE_LIMITED") {
    // The same numbers as the 429's Retry-After / X-RateLimit-Reset; 5 s when the limit gave none (busy queue).
    const reset = Number(headers["X-RateLimit-Reset"]);
    const after = Number(headers["Retry-After"] ?? 5);
    structured.retryAfterSeconds = Math.max(1, Number.isFinite(after) ? after : 5);
    structured.retryAt = new Date(
      Number.isFinite(reset) && reset > 0 ? reset * 1000 : nowMs + structured.retryAfterSeconds * 1000,
    ).toISOString();
    retry = ` Retry after ${structured.retryAfterSeconds} s (at ${structured.retryAt}).`;
  }
  return {
    isError: true,
    structuredContent: structured as unknown as Record<string, unknown>,
    content: [
      { type: "text", text: `${body.errorCode}: ${body.error}${retry} Hint: ${body.hint}` },
      { type: "text", text: JSON.stringify(structured) },
    ],
  };
}
