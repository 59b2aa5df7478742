import { randomUUID } from "node:crypto";
import { getConfig } from "../config";
import { log } from "../log";
import { ApiError, toErrorBody } from "./errors";

/** Internal headers set by our own server (scripts/server.mjs); a client's copies are stripped there. */
export const SOCKET_ADDRESS_HEADER = "x-linklens-socket-address";
export const REQUEST_ID_HEADER = "x-request-id";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Accept, X-Request-Id",
  "Access-Control-Expose-Headers": "X-Request-Id",
  "Access-Control-Max-Age": "86400",
};

/** The public origin for absolute URLs in documents: SITE_URL, else the request's own origin. */
export function siteOrigin(request: Request): string {
  const config = getConfig();
  if (config.SITE_URL) return config.SITE_URL.replace(/\/+$/, "");
  return originFromHeaders(request.headers, config.TRUSTED_PROXY_HOPS > 0) ?? new URL(request.url).origin;
}

/**
 * The origin the client used, from Host (and X-Forwarded-Proto/Host behind trusted proxies). Next's
 * request.url carries the server's bind name, not what the client typed. Odd Host values are ignored.
 */
export function originFromHeaders(headers: Headers, behindProxy: boolean): string | null {
  const forwardedHost = behindProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwardedHost || headers.get("host");
  if (!host || !/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(host)) return null;
  const forwardedProto = behindProxy ? headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const protocol = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : "http";
  return `${protocol}://${host.toLowerCase()}`;
}

export function docsUrl(request: Request): string {
  return `${siteOrigin(request)}/docs#errors`;
}

/** The request id our server assigned (echoing a sane client X-Request-Id), or a fresh one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get(REQUEST_ID_HEADER);
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "Content-Type": JSON_CONTENT_TYPE, ...init.headers },
  });
}

/**
 * The only way an error leaves the API: the five-field Error body. Unexpected errors are logged with
 * the request id and answered as a generic 500.
 */
export function errorResponse(error: unknown, request: Request, headers: Record<string, string> = {}): Response {
  const { status, body, headers: errorHeaders, expected } = toErrorBody(error, docsUrl(request));
  const requestId = requestIdOf(request);
  if (!expected) {
    log.error({ requestId, err: error, method: request.method, path: new URL(request.url).pathname }, "unexpected error");
  }
  const merged: Record<string, string> = { ...headers, ...errorHeaders, [REQUEST_ID_HEADER]: requestId };
  // Every 429 tells the client how long to wait, whichever limit (IP, budget, queue) said no.
  if (status === 429 && !Object.keys(merged).some((name) => name.toLowerCase() === "retry-after")) merged["Retry-After"] = "5";
  return jsonResponse(body, { status, headers: merged });
}

/** 405 with the Allow header, as an Error body. */
export function methodNotAllowed(request: Request, allow: readonly string[], headers: Record<string, string> = {}): Response {
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
