/**
 * What a link's `httpStatus` means, in one place (the link checker writes it; stats, the landing page's
 * table, filters and exports read it). Imports nothing, so server and browser code share it.
 *
 * - NOT_CHECKED (null): paste mode, ignored links, links past LINK_CHECK_MAX, and checks still running
 *   at the batch deadline or cancelled: we do not know, so never "broken".
 * - NO_RESPONSE (0): checked, but no HTTP response came back (DNS, refused, TLS, timeout, an address
 *   the network guard blocks, a redirect to a non-http scheme): broken.
 * - any other number: the final HTTP status after up to 5 redirects.
 */

export const NOT_CHECKED = null;
export const NO_RESPONSE = 0;

/** A link's httpStatus: NOT_CHECKED, NO_RESPONSE or an HTTP status. */
export type HttpStatus = number | typeof NOT_CHECKED;

/**
 * Statuses that answer but do not mean the link is dead: 401/403 are access walls, 429 a rate limit,
 * and LinkedIn's 999 a bot wall. Reported, never counted as broken.
 */
const ACCESS_WALL_STATUSES: ReadonlySet<number> = new Set([401, 403, 429, 999]);

/** Whether a status is an access or bot wall (decisions.md). */
export function isAccessWall(status: HttpStatus): boolean {
  return status !== NOT_CHECKED && ACCESS_WALL_STATUSES.has(status);
}

/** Whether a status counts as broken: NO_RESPONSE, or 400–599 except access walls. NOT_CHECKED never is. */
export function isBrokenStatus(status: HttpStatus): boolean {
  if (status === NOT_CHECKED) return false;
  if (status === NO_RESPONSE) return true;
  return status >= 400 && status <= 599 && !isAccessWall(status);
}
