/**
 * The nesting depth of JSON text, measured before it is parsed. A few kilobytes of `[[[[…]]]]` are valid
 * JSON thousands of levels deep, and every recursive step after the parse (a walk of the value, a
 * structured clone to or from a worker thread, JSON.stringify, validation) costs stack and time per level:
 * 4,000 levels took the server down. So every JSON request body is measured here first, and one nested
 * deeper than MAX_JSON_DEPTH (lib/limits.ts) is refused unparsed.
 *
 * One pass, no recursion, constant memory: brackets count only outside strings, and a string is skipped
 * to its closing quote (a quote preceded by an odd run of backslashes is escaped). Imports nothing, so
 * the worker thread that reads paste bodies (lib/analyzer/worker/paste-body.ts) and the HTTP layer share it.
 * It judges depth only: text that is not JSON is JSON.parse's to refuse, with its own error, unless it
 * already opens more levels than the limit before it goes wrong.
 */

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }

/** Whether `text` opens more than `maxDepth` arrays and objects inside one another. Linear time. */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      // Never below zero: a stray closer (invalid JSON) must not lend depth to what follows.
      if (depth > 0) depth -= 1;
    }
  }
  return false;
}

/**
 * The index of the quote that closes the string opened at `open` (the text's length when none does).
 * Each backslash is counted at most once: the backward count from a quote stops at the previous quote.
 */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let k = quote - 1; k > open && text.charCodeAt(k) === BACKSLASH; k--) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
