import { log } from "../log";
import { ApiError } from "../errors";
import { toErrorBody } from "./error-body";
import { docsPageUrl, siteOrigin } from "./origin";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** nginx's 499 "client closed request": what the request log says of an answer the client did not wait for. */
export const CLIENT_CLOSED_REQUEST = 499;

export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Accept, X-Request-Id",
  "Access-Control-Expose-Headers": "X-Request-Id",
  "Access-Control-Max-Age": "86400",
};

export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "Content-Type": JSON_CONTENT_TYPE, ...init.headers },
  });
}

/** A JSON answer already encoded (a worker thread serialized it): the bytes are sent as they are. */
export function jsonBytesResponse(
  bytes: Uint8Array,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: init.status ?? 200,
    headers: { "Content-Type": JSON_CONTENT_TYPE, ...init.headers },
  });
}

/**
 * The only way an error leaves the API: the five-field Error body. Unexpected errors are logged with
 * the request id and answered as a generic 500.
 */
export function errorResponse(error: unknown, request: Request, headers: Record<string, string> = {}): Response {
  const requestId = requestIdOf(request);
  if (request.signal?.aborted) {
    // The client went away (its upload or our work was cut short): nobody reads this answer, and it is
    // not our error. The server's request log records it as aborted (status 499).
    log.info({ requestId, method: request.method, path: new URL(request.url).pathname }, "client went away");
    return new Response(null, { status: CLIENT_CLOSED_REQUEST, headers: { [REQUEST_ID_HEADER]: requestId } });
  }
  const { status, body, headers: errorHeaders, expected } = toErrorBody(error, docsPageUrl(siteOrigin(request)));
  if (!expected) {
    log.error(
      { requestId, err: error, method: request.method, path: new URL(request.url).pathname },
      "unexpected error",
    );
  }
  const merged: Record<string, string> = { ...headers, ...errorHeaders, [REQUEST_ID_HEADER]: requestId };
  // Every 429 tells the client how long to wait, whichever limit (IP, budget, queue) said no.
  if (status === 429 && !Object.keys(merged).some((name) => name.toLowerCase() === "retry-after"))
    merged["Retry-After"] = "5";
  return jsonResponse(body, { status, headers: merged });
}

/** 405 with the Allow header, as an Error body. */
export function methodNotAllowed(
  request: Request,
  allow: readonly string[],
  headers: Record<string, string> = {},
): Response {
  const list = allow.join(", ");
  return errorResponse(
    new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; use ${list}.`, {
      hint: `Use ${list}.`,
      headers: { Allow: list },
    }),
    request,
    headers,
  );
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * The exports of a read-only JSON route: GET and HEAD answer, OPTIONS is the CORS preflight, every other
 * method is 405 with `Allow`. CORS headers go on every answer so browser tools can read errors too.
 */
export function readOnlyRoute(get: Handler, options: { cors: boolean }) {
  const extra = options.cors ? CORS_HEADERS : {};
  const allow = ["GET", "HEAD", "OPTIONS"] as const;
  const GET = async (request: Request): Promise<Response> => {
    try {
      const response = await get(request);
      for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
      return response;
    } catch (error) {
      return errorResponse(error, request, extra);
    }
  };
  const OPTIONS = (): Response => new Response(null, { status: 204, headers: { ...extra, Allow: allow.join(", ") } });
  const notAllowed = (request: Request): Response => methodNotAllowed(request, allow, extra);
  return { GET, HEAD: GET, OPTIONS, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
}
