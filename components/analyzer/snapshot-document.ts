/**
 * Builds the snapshot iframe's document from the API's sanitizedHtml without string concatenation:
 * parse with DOMParser (a parsed document never runs scripts), insert a restrictive CSP <meta> as
 * the first thing in <head>, a <base href> so relative images and styles resolve against the
 * analyzed page, and our highlight style; then serialize.
 */
export const SNAPSHOT_CSP =
  "default-src 'none'; img-src data: https: http:; style-src 'unsafe-inline' https: http:; font-src https: http: data:; form-action 'none'; frame-src 'none'";

export const SELECTED_ATTRIBUTE = "data-linklens-selected";

const HIGHLIGHT_CSS = `
a[href], area[href] { cursor: pointer; }
[${SELECTED_ATTRIBUTE}] {
  outline: 3px solid #f59e0b !important;
  outline-offset: 2px !important;
  background-color: rgba(245, 158, 11, 0.28) !important;
  border-radius: 2px;
}`;

export function buildSnapshotDocument(sanitizedHtml: string, pageUrl: string): string {
  const doc = new DOMParser().parseFromString(sanitizedHtml, "text/html");
  const head = doc.head;

  const csp = doc.createElement("meta");
  csp.httpEquiv = "Content-Security-Policy";
  csp.content = SNAPSHOT_CSP;

  const base = doc.createElement("base");
  base.href = pageUrl;

  const style = doc.createElement("style");
  style.textContent = HIGHLIGHT_CSS;

  // Anything the sanitizer let through in <head> comes after the CSP, so the policy covers it.
  head.prepend(csp, base);
  head.append(style);
  return `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}
