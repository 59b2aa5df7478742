/** The rel flags an SEO audit reports for a link. */
export interface RelFlags {
  isNofollow: boolean;
  isSponsored: boolean;
  isUgc: boolean;
}

// decisions.md: rel is split on whitespace and commas (some CMSes write "nofollow,sponsored").
const TOKEN_SEPARATORS = /[\s,]+/;

/** Lowercased tokens of a rel or robots-content value, split on whitespace and commas. */
export function splitTokens(value: string): string[] {
  return value.toLowerCase().split(TOKEN_SEPARATORS).filter((token) => token !== "");
}

/**
 * Rel flags from a link's `rel` attribute (null when absent); `pageNofollow` (meta robots or
 * X-Robots-Tag) makes every link nofollow.
 */
export function relFlags(rel: string | null, pageNofollow: boolean): RelFlags {
  const flags: RelFlags = { isNofollow: pageNofollow, isSponsored: false, isUgc: false };
  if (rel === null) return flags;
  for (const token of splitTokens(rel)) {
    if (token === "nofollow") flags.isNofollow = true;
    else if (token === "sponsored") flags.isSponsored = true;
    else if (token === "ugc") flags.isUgc = true;
  }
  return flags;
}

/** Whether a `<meta name>` value addresses the crawlers whose nofollow LinkLens honours. */
export function isRobotsMetaName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return lower === "robots" || lower === "googlebot";
}

/** Whether a robots directive list (meta content or X-Robots-Tag) says nofollow or none. */
export function robotsContentSaysNofollow(content: string): boolean {
  return splitTokens(content).some((token) => token === "nofollow" || token === "none");
}
