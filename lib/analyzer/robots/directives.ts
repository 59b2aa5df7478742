/**
 * What a page tells crawlers about itself and its links, read from its markup and headers: a link's `rel`
 * (nofollow, sponsored, ugc), `<meta name="robots">` and X-Robots-Tag (nofollow, noindex). Pure; robots.txt,
 * which needs a fetch, is robots-txt.ts.
 */

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
  return value
    .toLowerCase()
    .split(TOKEN_SEPARATORS)
    .filter((token) => token !== "");
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

/** Whether a robots directive list says noindex or none (monitors report a page that left the index). */
export function robotsContentSaysNoindex(content: string): boolean {
  return splitTokens(content).some((token) => token === "noindex" || token === "none");
}

/** X-Robots-Tag scopes that speak to us: unscoped (everyone), Google's crawler, and our own bot. */
const OUR_ROBOTS_SCOPES = new Set(["googlebot", "linklensbot"]);
/** X-Robots-Tag directives that carry a `name: value`, so their colon is not a user-agent scope. */
const VALUED_DIRECTIVES = new Set([
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
  "unavailable_after",
  "indexifembedded",
]);

/**
 * Whether an X-Robots-Tag value (one header, or several joined by newlines) tells us not to
 * follow the page's links: `nofollow` or `none`, unscoped or scoped to googlebot/linklensbot.
 * `otherbot: nofollow` does not apply to us. A scope applies until the next scope in the same header.
 */
export function robotsHeaderNofollow(value: string | undefined | null): boolean {
  return robotsHeaderSays(value, "nofollow");
}

/** Scopes whose noindex counts for the page signal (placement-verdict.md): none, or Google's crawler. */
const NOINDEX_SCOPES = new Set(["googlebot"]);

/**
 * Whether an X-Robots-Tag value says noindex (or none) with no user-agent prefix or with `googlebot:`
 * (placement-verdict.md "Page signals"); `bingbot: noindex` does not take the page out of Google.
 */
export function robotsHeaderNoindex(value: string | undefined | null): boolean {
  return robotsHeaderSays(value, "noindex", NOINDEX_SCOPES);
}

function robotsHeaderSays(
  value: string | undefined | null,
  directive: "nofollow" | "noindex",
  scopes: ReadonlySet<string> = OUR_ROBOTS_SCOPES,
): boolean {
  if (!value) return false;
  for (const header of value.split(/\n/)) {
    let scope: string | null = null;
    for (const piece of header.split(",")) {
      let token = piece.trim().toLowerCase();
      const scoped = /^([a-z0-9_*.-]+)\s*:\s*(.*)$/.exec(token);
      if (scoped?.[1] && !VALUED_DIRECTIVES.has(scoped[1])) {
        scope = scoped[1];
        token = (scoped[2] ?? "").trim();
      }
      if ((token === directive || token === "none") && (scope === null || scopes.has(scope))) return true;
    }
  }
  return false;
}
