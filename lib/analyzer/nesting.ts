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
 */
export const NESTING_LIMITS = {
  /** Estimated maximum depth. */
  maxDepth: 3_000,
  /** Estimated sum of the depths of all elements: jsdom's ancestor walks in total. */
  totalDepth: 25_000_000,
} as const;

const VOID = new Set([
  "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
]);
// Elements whose content the tokenizer reads as text up to the matching end tag (scripting off;
// noscript is markup there, and URL-mode noscript content is counted as markup, which only leans high).
const RAW_TEXT = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title"]);
// Start tags that close an open <p> (the HTML "close a p element" list).
const CLOSES_P = new Set([
  "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup",
  "main", "menu", "nav", "ol", "p", "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form", "table", "hr", "li", "dd", "dt",
]);
// Start tags that leave SVG/MathML for HTML (the tree builder's "breakout" list).
const BREAKOUT = new Set([
  "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img",
  "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
]);

interface OpenElement {
  name: string;
  foreign: boolean;
}

const TAG_NAME = /[^\t\n\f\r />]*/y;

/** Nesting statistics of the estimate, exported for tests and the benchmark. */
export interface NestingEstimate {
  maxDepth: number;
  totalDepth: number;
}

/** Estimates how deep the parsed tree of `html` will nest (see NESTING_LIMITS). Linear time. */
export function estimateNesting(html: string): NestingEstimate {
  const stack: OpenElement[] = [];
  let maxDepth = 0;
  let totalDepth = 0;
  let i = 0;
  const length = html.length;
  while (i < length) {
    const lt = html.indexOf("<", i);
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
      if (VOID.has(name)) continue;
    } else if (selfClosing) {
      continue;
    }
    const foreign = foreignContext || name === "svg" || name === "math";
    if (foreign && selfClosing) continue;
    stack.push({ name, foreign });
    totalDepth += stack.length;
    if (stack.length > maxDepth) maxDepth = stack.length;
    if (!foreign && RAW_TEXT.has(name)) {
      i = skipRawText(html, i, name);
      stack.pop();
    } else if (!foreign && name === "plaintext") {
      break;
    }
  }
  return { maxDepth, totalDepth };
}

/**
 * Throws 422 UNPROCESSABLE_PAGE when the estimate exceeds NESTING_LIMITS; called before parsing.
 */
export function assertParseableNesting(html: string): void {
  const { maxDepth, totalDepth } = estimateNesting(html);
  if (maxDepth > NESTING_LIMITS.maxDepth || totalDepth > NESTING_LIMITS.totalDepth) {
    throw new ApiError("UNPROCESSABLE_PAGE", "The document is nested too deeply to analyse.");
  }
}

function closeImplied(stack: OpenElement[], name: string): void {
  const top = stack.at(-1);
  if (top === undefined) return;
  if (top.name === "p" && CLOSES_P.has(name)) stack.pop();
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
