/**
 * Builds the snapshot iframe's document from the API's sanitizedHtml without string concatenation:
 * parse with DOMParser (a parsed document never runs scripts or loads anything), insert a restrictive
 * CSP <meta> as the first thing in <head>, a <base href> so relative links resolve against the
 * analyzed page, and our highlight style; then serialize.
 *
 * By default the snapshot fetches nothing: every request would tell the analysed site the visitor's
 * IP (and a paste's images point wherever the paste says). The CSP allows only inline styles and
 * data: images, and remote references are removed from the document as well (srcset, src, poster,
 * <link>, @import, url()), so the browser neither requests them nor logs a refusal for each. The
 * visitor may opt in to the page's images ("Load images from the page"); stylesheets, fonts and
 * everything else stay off.
 */
export function snapshotCsp(loadImages: boolean): string {
  return `default-src 'none'; img-src data:${loadImages ? " https: http:" : ""}; style-src 'unsafe-inline'; font-src data:; form-action 'none'; frame-src 'none'`;
}

/** The default policy (nothing remote). */
export const SNAPSHOT_CSP = snapshotCsp(false);

const CSS_IMPORT = /@import\b[^;]*(;|$)/gi;
const CSS_REMOTE_URL = /url\(\s*(?!["']?\s*data:)(?:"[^"]*"|'[^']*'|[^)]*)\)/gi;
/** Attributes that make a browser fetch an image or media file. */
const MEDIA_ATTRIBUTES = ["src", "srcset", "poster", "background", "href", "xlink:href", "data"];
const MEDIA_ELEMENTS =
  "img, picture source, video, audio, source, track, input, embed, object, image, feImage, body, table, td, th, tr";

function isDataUrl(value: string): boolean {
  return /^\s*data:/i.test(value);
}

function cleanCss(css: string, loadImages: boolean): string {
  const withoutImports = css.replace(CSS_IMPORT, "");
  return loadImages ? withoutImports : withoutImports.replace(CSS_REMOTE_URL, "none");
}

/** Removes what would make the frame fetch remote resources (see the module comment). */
function stripRemoteResources(doc: Document, loadImages: boolean): void {
  for (const link of Array.from(doc.querySelectorAll("link"))) link.remove();
  for (const style of Array.from(doc.querySelectorAll("style")))
    style.textContent = cleanCss(style.textContent ?? "", loadImages);
  for (const element of Array.from(doc.querySelectorAll("[style]")))
    element.setAttribute("style", cleanCss(element.getAttribute("style") ?? "", loadImages));
  if (loadImages) return;
  for (const element of Array.from(doc.querySelectorAll(MEDIA_ELEMENTS))) {
    // Links (<a href>, <area href>) are not in the list: their href is the point of the snapshot.
    for (const name of MEDIA_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value !== null && !isDataUrl(value)) element.removeAttribute(name);
    }
  }
}

export const SELECTED_ATTRIBUTE = "data-linklens-selected";

const HIGHLIGHT_CSS = `
a[href], area[href] { cursor: pointer; }
[${SELECTED_ATTRIBUTE}] {
  outline: 3px solid #f59e0b !important;
  outline-offset: 2px !important;
  background-color: rgba(245, 158, 11, 0.28) !important;
  border-radius: 2px;
}`;

export function buildSnapshotDocument(
  sanitizedHtml: string,
  pageUrl: string,
  options: { loadImages?: boolean } = {},
): string {
  const loadImages = options.loadImages === true;
  const doc = new DOMParser().parseFromString(sanitizedHtml, "text/html");
  const head = doc.head;
  stripRemoteResources(doc, loadImages);

  const csp = doc.createElement("meta");
  csp.httpEquiv = "Content-Security-Policy";
  csp.content = snapshotCsp(loadImages);

  const base = doc.createElement("base");
  base.href = pageUrl;

  const style = doc.createElement("style");
  style.textContent = HIGHLIGHT_CSS;

  // Anything the sanitizer let through in <head> comes after the CSP, so the policy covers it.
  head.prepend(csp, base);
  head.append(style);
  return `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}
