import { isBrokenStatus } from "@/lib/link-status";
import type { AnalyzedLink, LinkStats } from "../types";

/**
 * The summary counts of decisions.md: internal + external + ignored = total; nofollow, sponsored and
 * ugc count internal and external links carrying the flag; follow counts those with none of the
 * three; broken counts links whose httpStatus is broken (see isBrokenStatus). Recompute after link
 * checks fill in httpStatus.
 */
export function computeStats(links: readonly AnalyzedLink[]): LinkStats {
  const stats: LinkStats = {
    total: links.length,
    internal: 0,
    external: 0,
    ignored: 0,
    follow: 0,
    nofollow: 0,
    sponsored: 0,
    ugc: 0,
    broken: 0,
  };
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
