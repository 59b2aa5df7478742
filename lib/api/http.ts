import { randomUUID } from "node:crypto";
import { getConfig, listenOrigin, type Config } from "../config";
import { log } from "../log";
import { ApiError } from "../errors";
import { toErrorBody } from "./errors";

/** Internal headers set by our own server (scripts/server.mjs); a client's copies are stripped there. */
export const SOCKET_ADDRESS_HEADER = "x-linklens-socket-address";
export const REQUEST_ID_HEADER = "x-request-id";

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

/** Header access shared by Fetch's Headers and a Node request (server/main.ts). */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

const HOST_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** hostname[:port]: DNS labels (no leading/trailing hyphen, at most 253 characters) or a bracketed IPv6 literal. */
const STRICT_HOST = new RegExp(`^(?:(?=[^:]{1,253}(?::|$))${HOST_LABEL}(?:\\.${HOST_LABEL})*\\.?|\\[[0-9a-f:.]+\\])(?::(\\d{1,5}))?$`, "i");

/** True for a Host header value that is a plain hostname[:port] (port 1–65535), nothing else. */
export function isStrictHost(host: string): boolean {
  const match = STRICT_HOST.exec(host);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
}

/**
 * The origin the client used, from Host (and X-Forwarded-Proto/Host behind trusted proxies), or null
 * when that value fails the strict hostname[:port] check: a forged Host must never reach a body.
 */
export function originFromHeaders(headers: HeaderSource, behindProxy: boolean): string | null {
  const forwardedHost = behindProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwardedHost || headers.get("host");
  if (!host || !isStrictHost(host)) return null;
  const forwardedProto = behindProxy ? headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const protocol = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : "http";
  return `${protocol}://${host.toLowerCase()}`;
}

/**
 * The public origin for absolute URLs (documents, Error `docs`): SITE_URL when set, else the request's
 * Host if it passes the strict check, else `listenOrigin` (the address the server listens on).
 */
export function publicOrigin(headers: HeaderSource, config: Pick<Config, "SITE_URL" | "TRUSTED_PROXY_HOPS">, listenOrigin: string): string {
  if (config.SITE_URL) return config.SITE_URL.replace(/\/+$/, "");
  return originFromHeaders(headers, config.TRUSTED_PROXY_HOPS > 0) ?? listenOrigin;
}

/** The public origin of a route's request. */
export function siteOrigin(request: Request): string {
  const config = getConfig();
  return publicOrigin(request.headers, config, listenOrigin(config));
}

/** The absolute /docs URL; an Error body's `docs` adds the code's anchor. */
export function docsPageUrl(origin: string): string {
  return `${origin}/docs`;
}

/** What a client-sent X-Request-Id may look like to be echoed (log-safe: no spaces, quotes or newlines). */
const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

/** A sane client X-Request-Id as given, else a fresh id. The server assigns it; routes read it back. */
export function acceptRequestId(given: string | null | undefined): string {
  return typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

/** The request id our server assigned (echoing a sane client X-Request-Id), or a fresh one. */
export function requestIdOf(request: Request): string {
  return acceptRequestId(request.headers.get(REQUEST_ID_HEADER));
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
  const requestId = requestIdOf(request);
  if (request.signal?.aborted) {
    // The client went away (its upload or our work was cut short): nobody reads this answer, and it is
    // not our error. The server's request log records it as aborted (status 499).
    log.info({ requestId, method: request.method, path: new URL(request.url).pathname }, "client went away");
    return new Response(null, { status: CLIENT_CLOSED_REQUEST, headers: { [REQUEST_ID_HEADER]: requestId } });
  }
  const { status, body, headers: errorHeaders, expected } = toErrorBody(error, docsPageUrl(siteOrigin(request)));
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
