import type { AnalyzedLink, LinkStats } from "./types";

/**
 * Statuses that answer but do not mean the link is dead: 401/403 are access walls, 429 a rate
 * limit, and LinkedIn's 999 a bot wall (outside 400–599 anyway). Reported, not counted as broken.
 */
const ACCESS_WALL_STATUSES = new Set([401, 403, 429]);

/** Whether an HTTP status counts as broken: no response at all (0) or 400–599 except access walls. */
export function isBrokenStatus(status: number | null): boolean {
  if (status === null) return false;
  if (status === 0) return true;
  return status >= 400 && status <= 599 && !ACCESS_WALL_STATUSES.has(status);
}

/**
 * The summary counts of decisions.md: internal + external + ignored = total; nofollow, sponsored and
 * ugc count internal and external links carrying the flag; follow counts those with none of the
 * three; broken counts links whose httpStatus is broken (see isBrokenStatus). Recompute after link
 * checks fill in httpStatus.
 */
export function computeStats(links: readonly AnalyzedLink[]): LinkStats {
  const stats: LinkStats = { total: links.length, internal: 0, external: 0, ignored: 0, follow: 0, nofollow: 0, sponsored: 0, ugc: 0, broken: 0 };
  for (const link of links) {
    if (isBrokenStatus(link.httpStatus)) stats.broken += 1;
    if (link.linkType === "ignored") {
      stats.ignored += 1;
      continue;
    }
    if (link.linkType === "internal") stats.internal += 1;
    else stats.external += 1;
    if (link.isNofollow) stats.nofollow += 1;
    if (link.isSponsored) stats.sponsored += 1;
    if (link.isUgc) stats.ugc += 1;
    if (!link.isNofollow && !link.isSponsored && !link.isUgc) stats.follow += 1;
  }
  return stats;
}
