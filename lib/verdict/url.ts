/**
 * "The same page" for canonicalElsewhere and page_redirected (placement-verdict.md "Page signals"): two
 * URLs are the same when they differ only by the fragment, a default port, the case of scheme and host
 * (the WHATWG serialization already drops default ports and lowercases both) and one trailing slash of
 * the path. The query counts. Strings that do not parse are compared as they are.
 */

function comparable(raw: string): string {
  const url = URL.parse(raw.trim());
  if (!url) return raw.trim();
  url.hash = "";
  if (url.pathname.length > 1 && url.pathname.endsWith("/")) url.pathname = url.pathname.slice(0, -1);
  return url.href;
}

export function sameUrl(a: string, b: string): boolean {
  return comparable(a) === comparable(b);
}

/** canonicalElsewhere: the canonical is set and names another URL than the final one; null when the final URL is unknown (paste mode). */
export function canonicalElsewhere(canonicalUrl: string | null, finalUrl: string | null): boolean | null {
  if (finalUrl === null) return null;
  return canonicalUrl !== null && !sameUrl(canonicalUrl, finalUrl);
}

/** page_redirected: the page ended on another URL than the one monitored. */
export function redirectedAway(monitoredUrl: string, finalUrl: string | null): boolean {
  return finalUrl !== null && !sameUrl(monitoredUrl, finalUrl);
}
