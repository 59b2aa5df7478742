import { randomUUID } from "node:crypto";

/** Set by our own server (server/main.ts) on every request: the client's id when sane, else a fresh one. */
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
