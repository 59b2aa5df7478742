/**
 * Some of our URLs carry a credential in a path segment, like others carry one in `?token=`: whoever
 * reads the segment opens what it opens. They must never reach a log. This is the one function every
 * logger of a path or a URL uses (lib/log.ts applies it to every log line, server/redacted-console.ts to
 * everything the process prints through the console, Next's own messages included):
 *
 * - `/r/{token}` and everything below it (a client report, its CSV: lib/shares);
 * - `/api/auth/reset-password/{token}` (Better Auth's password-reset link);
 * - `token=` in a query (sign-in, confirmation, mute and invitation links).
 *
 * The segment (or the value) becomes `[redacted]`, so a log still says which route was asked. A path is
 * matched wherever it stands: alone (`/r/abc`), in a URL (`https://host/r/abc`), with repeated slashes
 * (`//r//abc`), in any letter case, and inside a JSON string (it stops at a quote or a backslash).
 * Imports nothing.
 */

/** Paths whose next segment is a secret. A later route with a token in its path adds its prefix here. */
export const SECRET_PATH_PREFIXES = ["/r", "/api/auth/reset-password"] as const;

export const REDACTED = "[redacted]";

/** One segment's characters: up to the next slash, query, fragment, space, quote, angle bracket or backslash. */
const SEGMENT = String.raw`[^/?#\s"'<>\\]+`;
/**
 * Where a path may start: the text's start, a character no path or host name holds, or a URL's authority.
 * Matched and put back (`$1`), not looked behind: a lookbehind of variable length is tried backwards from
 * every position of the text, which cost 1–2 ms per kilobyte of every log line.
 */
const PATH_START = String.raw`(^|[^\w~%.\-/]|:\/\/[^/?#\s"'<>\\]*)`;

const prefixPattern = (prefix: string) =>
  prefix
    .split("/")
    .filter(Boolean)
    .map((segment) => String.raw`\/+${segment.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}`)
    .join("");

const SECRET_PATH = new RegExp(
  `${PATH_START}((?:${SECRET_PATH_PREFIXES.map(prefixPattern).join("|")})\\/+)${SEGMENT}`,
  "gi",
);
/** A cheap test that a text may hold a secret at all; most log lines do not, and skip both patterns. */
const MAY_HOLD_SECRET = /\/r\/|reset-password|token=/i;
const QUERY_TOKEN = /([?&]token=)[^&#\s"'<>\\]+/gi;

/** `text` with every secret path segment and `token=` value replaced by `[redacted]`. */
export function redactSecretPaths(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  return text.replace(SECRET_PATH, `$1$2${REDACTED}`).replace(QUERY_TOKEN, `$1${REDACTED}`);
}
