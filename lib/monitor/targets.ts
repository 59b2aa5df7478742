import { parsePublicUrl } from "../analyzer";
import { ApiError } from "../errors";
import { normalizeTarget, type MatchMode } from "./match";
import { INTERVALS } from "../schemas/monitors";

/**
 * Where a monitor and a tracked link point, in their stored forms, with errors that name the field.
 */

/**
 * The default match mode, the MCP find_link rule: a target that names no page (a bare hostname such as
 * `mysite.example`, or `https://mysite.example/` with no path and no query) is `domain`; anything with a
 * path or a query is `exact`.
 */
export function defaultMatch(raw: string): MatchMode {
  const trimmed = raw.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(trimmed);
  const url = URL.parse(hasScheme ? trimmed : `https://${trimmed.replace(/^\/\//, "")}`);
  if (!url) return "exact";
  return url.pathname === "/" && url.search === "" ? "domain" : "exact";
}

/** A tracked link's stored target and match mode (400 INVALID_REQUEST naming `field` when not an http(s) URL or host). */
export function targetFor(
  raw: string,
  match: MatchMode | undefined,
  field = "target",
): { target: string; match: MatchMode } {
  const mode = match ?? defaultMatch(raw);
  return { target: normalizeTarget(raw, mode, field), match: mode };
}

/** A monitored page's stored URL: public (400 INVALID_URL otherwise), WHATWG-serialized, without the fragment. */
export function monitorUrlFor(raw: string, allowPrivateHosts: readonly string[], field = "url"): string {
  let url: URL;
  try {
    url = parsePublicUrl(raw, allowPrivateHosts);
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.code, `${field}: ${error.message}`, { hint: error.hint });
    throw error;
  }
  url.hash = "";
  return url.href;
}

/** intervalMinutes must also respect MONITOR_MIN_INTERVAL_MINUTES (the schema checks the list). */
export function assertInterval(minutes: number, minimum: number, field = "intervalMinutes"): void {
  if (minutes < minimum) {
    const allowed = INTERVALS.filter((value) => value >= minimum).join(", ");
    throw new ApiError(
      "INVALID_REQUEST",
      `${field}: this server checks pages at most every ${minimum} minutes; use one of ${allowed}.`,
    );
  }
}
