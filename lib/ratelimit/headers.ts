import type { LimitResult } from "./types";

/**
 * Response headers for a limit result (decisions.md): `X-RateLimit-Limit`, `X-RateLimit-Remaining`,
 * `X-RateLimit-Reset` (Unix time, whole seconds, when the limit next has room) and, when refused,
 * `Retry-After` in whole seconds, at least 1, counted from `nowMs` so that waiting that long reaches Reset.
 * The IETF draft `RateLimit` headers are not sent: the draft's syntax changed between versions and the
 * X- headers are what the public spec names.
 */
export function rateLimitHeaders(result: LimitResult, nowMs: number = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(Math.max(0, result.remaining)),
    "X-RateLimit-Reset": String(result.reset),
  };
  if (!result.allowed) {
    headers["Retry-After"] = String(Math.max(1, Math.ceil(result.reset - nowMs / 1000)));
  }
  return headers;
}
