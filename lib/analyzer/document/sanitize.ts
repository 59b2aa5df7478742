import createDOMPurify, { type Config } from "dompurify";
import { inertWindow } from "./parse";
import { purifyWindow } from "./purify-window";
import type { Stopwatch } from "../timings";

// DOMPurify must share the parser's window: its NodeIterator and DOM getters need the same DOM
// classes as the document it cleans (purify-window.ts says what its view of that window changes).
// One instance per process/worker; sanitize() is synchronous.
const purify = createDOMPurify(purifyWindow(inertWindow) as unknown as Parameters<typeof createDOMPurify>[0]);

/**
 * The sanitizer contract of decisions.md, spelled out rather than left to DOMPurify's defaults:
 * HTML only (SVG and MathML are where namespace-confusion mXSS lives, and a link snapshot does not
 * need them); no element that runs code, navigates, submits, embeds another document or changes
 * how URLs resolve; no inline handlers; DOMPurify's URI allow-list (no javascript:, vbscript:, or data:
 * outside media elements) on every URI-bearing attribute.
 */
export const SNAPSHOT_CONFIG: Config & { IN_PLACE: true } = {
  IN_PLACE: true,
  WHOLE_DOCUMENT: true,
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    "script",
    "noscript",
    "template",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "portal",
    "fencedframe",
    "form",
    "input",
    "button",
    "meta",
    "base",
    "link",
    "svg",
    "math",
  ],
  // Belt and braces: DOMPurify's HTML profile does not allow these, but the contract names them.
  FORBID_ATTR: ["action", "formaction", "srcdoc", "ping", "xlink:href", "http-equiv"],
  // data-linklens-position must survive; page-supplied copies were removed before marking.
  ALLOW_DATA_ATTR: true,
  // A removed wrapper (a <form> around a nav, say) keeps its content, so the links inside stay visible.
  KEEP_CONTENT: true,
};

const FORBIDDEN = new Set(SNAPSHOT_CONFIG.FORBID_TAGS);
// DOMPurify's default FORBID_CONTENTS (a removed element of these loses its content too) plus the
// forbidden elements that hold no markup worth keeping.
const FORBID_CONTENTS = new Set([
  ...[
    "annotation-xml",
    "audio",
    "colgroup",
    "desc",
    "foreignobject",
    "head",
    "iframe",
    "math",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
  ],
  ...[
    "noembed",
    "noframes",
    "noscript",
    "plaintext",
    "script",
    "selectedcontent",
    "style",
    "svg",
    "template",
    "thead",
    "title",
    "video",
    "xmp",
  ],
  ...["frame", "frameset", "embed", "meta", "base", "link"],
]);

// The tags DOMPurify keeps under SNAPSHOT_CONFIG, read from DOMPurify itself (its hook sees the resolved
// allow-list) so the pre-pass below can never disagree with the real sanitizer about what stays.
const ALLOWED = new Set<string>();
purify.addHook("uponSanitizeElement", (_node, data) => {
  for (const tag of Object.keys(data.allowedTags)) if (data.allowedTags[tag] === true) ALLOWED.add(tag);
});
purify.sanitize("<p></p>", { USE_PROFILES: SNAPSHOT_CONFIG.USE_PROFILES, WHOLE_DOCUMENT: true });
purify.removeAllHooks();

// CSS cannot run javascript: URLs in any current browser, but the contract is "no javascript: URL
// anywhere", and expression()/behavior are old-IE script hooks: drop such style attributes, and
// empty such <style> sheets.
const SCRIPTY_CSS = /javascript\s*:|expression\s*\(|behavior\s*:|-moz-binding/i;
purify.addHook("uponSanitizeAttribute", (_node, data) => {
  if (data.attrName === "style" && SCRIPTY_CSS.test(data.attrValue)) data.keepAttr = false;
});
purify.addHook("uponSanitizeElement", (node, data) => {
  if (data.tagName === "style" && SCRIPTY_CSS.test(node.textContent ?? "")) node.textContent = "";
});

/** What the sanitizer will do with an element: keep it, drop it with its content, or unwrap it. */
export type SanitizerFate = "keep" | "drop" | "unwrap";

/**
 * Predicts DOMPurify's decision for an HTML element by tag name, so the analysis walk can remove
 * such elements before DOMPurify runs. Only an optimization: DOMPurify still checks everything. It
 * matters because DOMPurify materializes every live childNodes list first, after which jsdom
 * recomputes a parent's whole list on each removal (20,000 removed siblings take minutes).
 */
export function sanitizerFate(htmlTagName: string): SanitizerFate {
  if (ALLOWED.has(htmlTagName) && !FORBIDDEN.has(htmlTagName)) return "keep";
  return FORBID_CONTENTS.has(htmlTagName) ? "drop" : "unwrap";
}

/**
 * Sanitizes the analysed document in place and serializes it. The document was parsed once and its
 * links already carry `data-linklens-position`; sanitizing that same tree (instead of serializing
 * and letting DOMPurify parse again) costs one parse less. The returned string is exactly what the
 * sanitized tree serializes to, with the `<!DOCTYPE html>` the page had so the snapshot keeps its
 * rendering mode; nothing is edited after sanitizing.
 */
export function sanitizeDocument(document: Document, clock?: Stopwatch): string {
  const root = document.documentElement;
  purify.sanitize(root, SNAPSHOT_CONFIG);
  clock?.lap("purify");
  const doctype =
    document.doctype !== null && document.doctype.name.toLowerCase() === "html" ? "<!DOCTYPE html>\n" : "";
  const html = doctype + root.outerHTML;
  clock?.lap("serialize");
  return html;
}
