/**
 * The Content-Security-Policy of every /r/ answer. A report runs no script (server/script-free-html.ts
 * takes Next's out of the HTML), loads only our stylesheet, shows only data: images (the site icon; the
 * charts are inline SVG), may not be framed, and has no form: everything else is refused.
 */
export const SHARE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'self'",
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Every answer under /r/ (the client report, its CSV and its 404): not indexed, never sent on as a
 * Referer (the URL holds the token), never stored by a shared cache or the browser's cache, and no
 * script. The production server (server/main.ts) sets them on every /r/ answer, over whatever Next would send.
 */
export const SHARE_PAGE_HEADERS = {
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "private, no-store",
  "Content-Security-Policy": SHARE_PAGE_CSP,
} as const;

/** Whether a request path is a client report's (/r/{token} and below). */
export function isSharePath(path: string): boolean {
  return path === "/r" || path.startsWith("/r/");
}

/** Whether a /r/ path is a report's CSV download (the one /r/ answer that is never HTML). */
export function isShareExportPath(path: string): boolean {
  return /^\/r\/[^/]+\/export\.csv$/.test(path);
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
