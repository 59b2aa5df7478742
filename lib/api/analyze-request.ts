import { parsePublicUrl } from "../analyzer";
import { ApiError } from "../errors";
import { describeZodError } from "../http/error-body";
import { maxAnalyzeBodyBytes, readJsonBody } from "../http/read-body";
import { normalizePasteDomain } from "./paste-request-domain";
import { PasteModeRequestSchema, UrlModeRequestSchema } from "./schemas";

export type ParsedAnalyzeRequest = { mode: "url"; url: URL } | { mode: "paste"; html: string; domain: string };

/**
 * Turns a parsed JSON body into exactly one of the two request shapes, with the status decisions.md
 * gives each failure: shape problems are INVALID_REQUEST, a bad url is INVALID_URL, oversized html is 413.
 */
export function parseAnalyzeRequest(
  body: unknown,
  limits: {
    maxHtmlBytes: number;
    allowPrivateHosts: string[];
    /** The html's UTF-8 bytes when `body` is a skeleton whose html was emptied (the worker measured it, lib/api/analyze-body.ts). */
    htmlBytes?: number;
  },
): ParsedAnalyzeRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("INVALID_REQUEST", "The body must be a JSON object.");
  }
  const hasUrl = "url" in body;
  const hasHtml = "html" in body;
  if (hasUrl && hasHtml) throw new ApiError("INVALID_REQUEST", "Send either url or html, not both.");
  if (!hasUrl && !hasHtml) throw new ApiError("INVALID_REQUEST", "Send url (URL mode) or html (paste mode).");

  if (hasUrl) {
    const parsed = UrlModeRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiError("INVALID_REQUEST", describeZodError(parsed.error));
    return { mode: "url", url: parsePublicUrl(parsed.data.url, limits.allowPrivateHosts) };
  }

  const parsed = PasteModeRequestSchema.safeParse(body);
  if (!parsed.success) throw new ApiError("INVALID_REQUEST", describeZodError(parsed.error));
  const htmlBytes = limits.htmlBytes ?? Buffer.byteLength(parsed.data.html, "utf8");
  if (htmlBytes > limits.maxHtmlBytes) {
    throw new ApiError(
      "PAYLOAD_TOO_LARGE",
      `html is ${htmlBytes.toLocaleString("en-US")} bytes; the limit is ${limits.maxHtmlBytes.toLocaleString("en-US")} bytes.`,
    );
  }
  return { mode: "paste", html: parsed.data.html, domain: normalizePasteDomain(parsed.data.domain) };
}

/**
 * The analyzer's request read from a JSON body on this thread, under the analyzer's raw-body cap and the
 * MAX_HTML_BYTES limit on html (413): POST /api/account/audits takes the public request shapes and their
 * rules (decisions.md). The public route parses in a worker instead (./analyze-body.ts).
 */
export async function readAnalyzeRequest(
  request: Request,
  limits: { maxHtmlBytes: number; allowPrivateHosts: string[] },
): Promise<ParsedAnalyzeRequest> {
  return parseAnalyzeRequest(await readJsonBody(request, maxAnalyzeBodyBytes(limits.maxHtmlBytes)), limits);
}
