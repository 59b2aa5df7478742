import { randomUUID } from "node:crypto";

/** Internal headers set by our own server (scripts/server.mjs); a client's copies are stripped there. */
export const SOCKET_ADDRESS_HEADER = "x-linklens-socket-address";
export const REQUEST_ID_HEADER = "x-request-id";

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
