import { analyzeRequestBody, refusalBeforeReading } from "@/lib/api/analyze-body";
import { clientKeyOf } from "@/lib/http/client-key";
import { ApiError } from "@/lib/errors";
import { errorResponse, jsonBytesResponse, jsonResponse, methodNotAllowed } from "@/lib/http/response";
import { requestIdOf } from "@/lib/http/request-id";
import { maxAnalyzeBodyBytes, readJsonBytes } from "@/lib/http/read-body";
import { getConfig } from "@/lib/config";
import { checkRequestLimit, peekRequestLimit, rateLimitHeaders } from "@/lib/ratelimit";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

// POST /api/demo/analyze — limit → (a large body the pool would refuse: 429 unread) → read body → parse → analyze (paste or URL mode) → JSON.
export async function POST(request: Request): Promise<Response> {
  let headers: Record<string, string> = NO_STORE;
  try {
    const config = getConfig();
    const clientKey = clientKeyOf(request);
    const limit = await checkRequestLimit(clientKey);
    headers = { ...NO_STORE, ...rateLimitHeaders(limit) };
    if (!limit.allowed) {
      throw new ApiError("RATE_LIMITED", `Too many requests: the limit is ${limit.limit} per minute per client.`);
    }
    const refused = refusalBeforeReading(request, clientKey, config);
    if (refused) throw refused;
    // Raw bytes: a large (paste) body is parsed, analysed and encoded in a worker thread (lib/api/analyze-body.ts).
    const body = await readJsonBytes(request, maxAnalyzeBodyBytes(config.MAX_HTML_BYTES));
    const answer = await analyzeRequestBody(body, {
      userAgent: request.headers.get("user-agent"),
      config,
      requestId: requestIdOf(request),
      clientKey,
      // Aborts when the client disconnects: queued work leaves the line, running work stops.
      signal: request.signal,
    });
    return answer.kind === "json"
      ? jsonBytesResponse(answer.bytes, { headers })
      : jsonResponse(answer.result, { headers });
  } catch (error) {
    return errorResponse(error, request, headers);
  }
}

// Any other method — 405 with Allow: POST; the limit is shown, not spent.
async function notAllowed(request: Request): Promise<Response> {
  let headers: Record<string, string> = NO_STORE;
  try {
    headers = { ...NO_STORE, ...rateLimitHeaders(await peekRequestLimit(clientKeyOf(request))) };
  } catch {
    // The 405 is the answer either way; the headers are a courtesy.
  }
  return methodNotAllowed(request, ["POST"], headers);
}

export {
  notAllowed as GET,
  notAllowed as HEAD,
  notAllowed as PUT,
  notAllowed as PATCH,
  notAllowed as DELETE,
  notAllowed as OPTIONS,
};
