/**
 * Every answer under /r/ (the client report, its CSV and its 404): not indexed, never sent on as a
 * Referer (the URL holds the token), and never stored by a shared cache or the browser's cache. The
 * production server (server/main.ts) sets them on every /r/ answer, over whatever Next would send.
 */
export const SHARE_PAGE_HEADERS = {
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "private, no-store",
} as const;

/** Whether a request path is a client report's (/r/{token} and below). */
export function isSharePath(path: string): boolean {
  return path === "/r" || path.startsWith("/r/");
}

/** The token of a report page path (/r/{token}, one segment, percent-decoded as the page reads it), else null. */
export function reportTokenOf(path: string): string | null {
  const match = /^\/r\/([^/]+)\/?$/.exec(path);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}
