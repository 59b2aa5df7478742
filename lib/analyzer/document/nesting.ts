import { ApiError } from "@/lib/errors";

/**
 * jsdom walks every ancestor (partly recursively) on each node it inserts, so parsing costs
 * O(nodes × depth): 4,000 nested `<div>`s take seconds and ~12,000 overflow the stack, while a
 * browser caps its own tree at 512 levels. A linear pre-scan estimates the nesting before jsdom
 * sees the markup and refuses documents that would only burn CPU.
 *
 * The estimate leans high: every start tag that is not void (or self-closed inside SVG/MathML)
 * opens a level, an end tag closes one only when it matches the innermost open element, and only
 * the commonest implied end tags (p, li, dt/dd, option, td/th/tr) are modelled. Real pages stay far
 * below the limits (the 170-page corpus peaks at a few hundred).
 *
 * Depth is not the only way to make the tree builder work: formatting elements (`<b>`, `<font>` …)
 * left open when a paragraph closes are re-created ("reconstructed") before the next text, for every
 * paragraph. 20 KB of `<b a1>…<b a100>` followed by 5,000 `<p>x` builds 500,000 elements and pinned
 * a worker for its whole time cap. So the scan also keeps a model of the active formatting list (with
 * the "Noah's Ark" limit of three identical entries and table-cell markers) and counts what would be
 * re-created. Real pages re-create a handful of elements; see the corpus test.
 */
export const NESTING_LIMITS = {
  /** Estimated maximum depth. */
  maxDepth: 3_000,
  /** Estimated sum of the depths of all elements: jsdom's ancestor walks in total. */
  totalDepth: 25_000_000,
  /**
   * Estimated formatting elements re-created by the tree builder (active-formatting reconstruction).
   * Measured: 50,000 of them cost jsdom 4.5 s (10 open tags) to 8 s (50 open tags); the 170-page
   * corpus re-creates none.
   */
  reconstructed: 5_000,
} as const;

const VOID = new Set([
  "area",
  "base",
  "basefont",
  "bgsound",
  "br",
  "col",
  "embed",
  "frame",
  "hr",
  "image",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
// Elements whose content the tokenizer reads as text up to the matching end tag (scripting off;
// noscript is markup there, and URL-mode noscript content is counted as markup, which only leans high).
const RAW_TEXT = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title"]);
// Start tags that close an open <p> (the HTML "close a p element" list).
const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "header",
  "hgroup",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "search",
  "section",
  "summary",
  "ul",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "listing",
  "form",
  "table",
  "hr",
  "li",
  "dd",
  "dt",
]);
// Start tags that leave SVG/MathML for HTML (the tree builder's "breakout" list).
const BREAKOUT = new Set([
  "b",
  "big",
  "blockquote",
  "body",
  "br",
  "center",
  "code",
  "dd",
  "div",
  "dl",
  "dt",
  "em",
  "embed",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "head",
  "hr",
  "i",
  "img",
  "li",
  "listing",
  "menu",
  "meta",
  "nobr",
  "ol",
  "p",
  "pre",
  "ruby",
  "s",
  "small",
  "span",
  "strong",
  "strike",
  "sub",
  "sup",
  "table",
  "tt",
  "u",
  "ul",
  "var",
]);

interface OpenElement {
  name: string;
  foreign: boolean;
}

// The tree builder's formatting elements (kept on the active formatting list) and the start tags that
// push a marker onto that list (entries before a marker are never reconstructed inside it).
const FORMATTING = new Set([
  "a",
  "b",
  "big",
  "code",
  "em",
  "font",
  "i",
  "nobr",
  "s",
  "small",
  "strike",
  "strong",
  "tt",
  "u",
]);
const MARKERS = new Set(["applet", "object", "marquee", "td", "th", "caption", "template"]);
// Elements that bound "has a p element in button scope" (the HTML scope list plus button).
const P_SCOPE_BOUNDARY = new Set([
  "applet",
  "caption",
  "html",
  "table",
  "td",
  "th",
  "marquee",
  "object",
  "template",
  "button",
]);

/** One entry of the modelled active formatting list: the element (while open), or a marker (null). */
interface FormattingEntry {
  name: string;
  /** Tag text after the name: two entries match for Noah's Ark only if their attributes match. */
  attributes: string;
  element: OpenElement;
  /** Index of `element` in the stack when it was pushed: open while stack[index] is still it. */
  index: number;
}
type ActiveEntry = FormattingEntry | null;

const TAG_NAME = /[^\t\n\f\r />]*/y;

/** Nesting statistics of the estimate, exported for tests and the benchmark. */
export interface NestingEstimate {
  maxDepth: number;
  totalDepth: number;
  /** Formatting elements the tree builder would re-create (see NESTING_LIMITS.reconstructed). */
  reconstructed: number;
}

/**
 * Estimates how deep the parsed tree of `html` will nest (see NESTING_LIMITS). Linear time. With
 * `stopAbove`, the scan stops as soon as any figure exceeds its limit (the figures are then lower bounds).
 */
export function estimateNesting(html: string, stopAbove?: NestingEstimate): NestingEstimate {
  const stack: OpenElement[] = [];
  const active: ActiveEntry[] = [];
  let maxDepth = 0;
  let totalDepth = 0;
  let reconstructed = 0;
  let i = 0;
  const length = html.length;
  const isOpen = (entry: FormattingEntry) => stack[entry.index] === entry.element;
  const push = (element: OpenElement) => {
    stack.push(element);
    totalDepth += stack.length;
    if (stack.length > maxDepth) maxDepth = stack.length;
  };
  /** "Reconstruct the active formatting elements": re-open every entry after the last open one. */
  const reconstruct = () => {
    const last = active.at(-1);
    if (last === undefined || last === null || isOpen(last)) return;
    let from = active.length - 1;
    while (from > 0) {
      const previous = active[from - 1];
      if (previous === null || previous === undefined || isOpen(previous)) break;
      from -= 1;
    }
    for (let k = from; k < active.length; k++) {
      const entry = active[k];
      if (!entry) continue;
      const element: OpenElement = { name: entry.name, foreign: false };
      entry.element = element;
      entry.index = stack.length;
      push(element);
      reconstructed += 1;
    }
  };
  while (i < length) {
    if (
      stopAbove &&
      (maxDepth > stopAbove.maxDepth || totalDepth > stopAbove.totalDepth || reconstructed > stopAbove.reconstructed)
    )
      break;
    const lt = html.indexOf("<", i);
    // Text before this tag (or the end) re-creates closed formatting elements, unless it is all space.
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > i && active.length > 0 && hasNonSpace(html, i, textEnd) && !stack.at(-1)?.foreign) reconstruct();
    if (lt === -1 || lt + 1 >= length) break;
    const next = html.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (html.startsWith("<!--", lt)) {
        // "<!-->" and "<!--->" end at once; otherwise the comment runs to "-->".
        if (html.startsWith(">", lt + 4) || html.startsWith("->", lt + 4)) {
          i = lt + 5;
          continue;
        }
        const end = html.indexOf("-->", lt + 4);
        i = end === -1 ? length : end + 3;
      } else {
        const end = html.indexOf(">", lt + 2);
        i = end === -1 ? length : end + 1;
      }
      continue;
    }
    if (next === 0x3f /* ? */) {
      const end = html.indexOf(">", lt + 2);
      i = end === -1 ? length : end + 1;
      continue;
    }
    const isEnd = next === 0x2f; /* / */
    const nameStart = isEnd ? lt + 2 : lt + 1;
    const first = html.charCodeAt(nameStart);
    const isLetter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a);
    if (!isLetter) {
      // "</>" and "</ …>" are bogus comments or dropped; a lone "<" is text.
      if (isEnd) {
        const end = html.indexOf(">", lt + 2);
        i = end === -1 ? length : end + 1;
      } else {
        i = lt + 1;
      }
      continue;
    }
    TAG_NAME.lastIndex = nameStart;
    TAG_NAME.exec(html);
    const name = html.slice(nameStart, TAG_NAME.lastIndex).toLowerCase();
    const tagEnd = findTagEnd(html, TAG_NAME.lastIndex);
    i = tagEnd + 1;
    const selfClosing = tagEnd > 0 && html.charCodeAt(tagEnd - 1) === 0x2f;
    const top = stack.at(-1);

    if (isEnd && !top?.foreign && (FORMATTING.has(name) || MARKERS.has(name))) {
      if (FORMATTING.has(name)) {
        // The adoption agency, roughly: the entry leaves the list and its element (with everything
        // opened inside it) leaves the stack.
        for (let k = active.length - 1; k >= 0; k--) {
          const entry = active[k];
          if (entry === null || entry === undefined) break;
          if (entry.name !== name) continue;
          active.splice(k, 1);
          if (isOpen(entry)) stack.length = entry.index;
          break;
        }
      } else {
        // Closing a cell, caption, object …: clear the list up to its marker.
        const marker = active.lastIndexOf(null);
        if (marker !== -1) active.length = marker;
      }
      if (top !== undefined && stack.at(-1) === top && top.name === name) stack.pop();
      continue;
    }

    if (isEnd) {
      if (top === undefined) continue;
      if (top.foreign) {
        // In SVG/MathML an end tag closes the nearest open element of that name.
        for (let k = stack.length - 1; k >= 0; k--) {
          const open = stack[k];
          if (open === undefined || !open.foreign) break;
          if (open.name === name) {
            stack.length = k;
            break;
          }
        }
      } else if (top.name === name) {
        stack.pop();
      }
      continue;
    }

    const foreignContext = top !== undefined && top.foreign && !BREAKOUT.has(name);
    if (!foreignContext) {
      closeImplied(stack, name);
      // Block-level start tags do not reconstruct; inline ones and text do.
      if (active.length > 0 && !CLOSES_P.has(name) && !MARKERS.has(name) && name !== "table" && name !== "tr")
        reconstruct();
      if (VOID.has(name)) continue;
    } else if (selfClosing) {
      continue;
    }
    const foreign = foreignContext || name === "svg" || name === "math";
    if (foreign && selfClosing) continue;
    const element: OpenElement = { name, foreign };
    push(element);
    if (!foreign && FORMATTING.has(name)) {
      addFormatting(active, {
        name,
        attributes: html.slice(TAG_NAME.lastIndex, tagEnd).trim(),
        element,
        index: stack.length - 1,
      });
    } else if (!foreign && MARKERS.has(name)) {
      active.push(null);
    }
    if (!foreign && RAW_TEXT.has(name)) {
      i = skipRawText(html, i, name);
      stack.pop();
    } else if (!foreign && name === "plaintext") {
      break;
    }
  }
  return { maxDepth, totalDepth, reconstructed };
}

/** Pushes a formatting entry, keeping at most three identical ones after the last marker (Noah's Ark). */
function addFormatting(active: ActiveEntry[], entry: FormattingEntry): void {
  let identical = 0;
  let earliest = -1;
  for (let k = active.length - 1; k >= 0; k--) {
    const other = active[k];
    if (other === null || other === undefined) break;
    if (other.name === entry.name && other.attributes === entry.attributes) {
      identical += 1;
      earliest = k;
    }
  }
  if (identical >= 3) active.splice(earliest, 1);
  // A new <a> ends an <a> still on the list (the adoption agency runs first).
  if (entry.name === "a") {
    for (let k = active.length - 1; k >= 0; k--) {
      const other = active[k];
      if (other === null || other === undefined) break;
      if (other.name === "a") {
        active.splice(k, 1);
        break;
      }
    }
  }
  active.push(entry);
}

function hasNonSpace(html: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isSpace(html.charCodeAt(k))) return true;
  return false;
}

/**
 * Throws 422 UNPROCESSABLE_PAGE when the estimate exceeds NESTING_LIMITS; called before parsing.
 */
export function assertParseableNesting(html: string): void {
  const { maxDepth, totalDepth, reconstructed } = estimateNesting(html, NESTING_LIMITS);
  if (maxDepth > NESTING_LIMITS.maxDepth || totalDepth > NESTING_LIMITS.totalDepth) {
    throw new ApiError("UNPROCESSABLE_PAGE", "The document is nested too deeply to analyse.");
  }
  if (reconstructed > NESTING_LIMITS.reconstructed) {
    throw new ApiError("UNPROCESSABLE_PAGE", "The document re-opens too many unclosed formatting tags to analyse.");
  }
}

function closeImplied(stack: OpenElement[], name: string): void {
  const top = stack.at(-1);
  if (top === undefined) return;
  if (CLOSES_P.has(name) && top.name !== "p") {
    // "If the stack has a p element in button scope, close a p element": everything opened inside
    // that p (unclosed <b>, <font> …) closes with it. Those are what reconstruction re-creates.
    for (let k = stack.length - 1; k >= 0; k--) {
      const open = stack[k];
      if (open === undefined || open.foreign || P_SCOPE_BOUNDARY.has(open.name)) break;
      if (open.name === "p") {
        stack.length = k + 1;
        break;
      }
    }
  }
  const innermost = stack.at(-1);
  if (innermost?.name === "p" && CLOSES_P.has(name)) stack.pop();
  const current = stack.at(-1);
  if (current === undefined) return;
  if (name === "li" && current.name === "li") stack.pop();
  else if ((name === "dt" || name === "dd") && (current.name === "dt" || current.name === "dd")) stack.pop();
  else if ((name === "option" || name === "optgroup") && current.name === "option") stack.pop();
  else if ((name === "td" || name === "th" || name === "tr") && (current.name === "td" || current.name === "th")) {
    stack.pop();
    if (name === "tr" && stack.at(-1)?.name === "tr") stack.pop();
  } else if (name === "tr" && current.name === "tr") stack.pop();
}

/** Index of the ">" that ends a tag whose name ended at `from`, honouring quoted attribute values. */
function findTagEnd(html: string, from: number): number {
  let i = from;
  const length = html.length;
  while (i < length) {
    const c = html.charCodeAt(i);
    if (c === 0x3e /* > */) return i;
    if (c === 0x3d /* = */) {
      i += 1;
      while (i < length && isSpace(html.charCodeAt(i))) i += 1;
      const quote = html.charCodeAt(i);
      if (quote === 0x22 || quote === 0x27) {
        const close = html.indexOf(quote === 0x22 ? '"' : "'", i + 1);
        if (close === -1) return length;
        i = close + 1;
        continue;
      }
      continue;
    }
    i += 1;
  }
  return length;
}

/** Index just past the end tag that closes a raw-text element (or the end of the input). */
function skipRawText(html: string, from: number, name: string): number {
  let i = from;
  for (;;) {
    const close = html.indexOf("</", i);
    if (close === -1) return html.length;
    if (html.slice(close + 2, close + 2 + name.length).toLowerCase() === name) {
      const end = html.indexOf(">", close);
      return end === -1 ? html.length : end + 1;
    }
    i = close + 2;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}
