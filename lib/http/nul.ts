import { ApiError } from "../errors";

/**
 * U+0000 in text the account product stores or looks up. PostgreSQL (and PGlite) refuse it in `text`
 * and `jsonb` ("invalid byte sequence for encoding UTF8: 0x00"), so a NUL that reached a query was a
 * 500, and one in a CSV cell failed the whole import. It is refused where input enters instead, named
 * like any other invalid field. The analyzer's html is not checked: the HTML parser replaces NULs.
 */
const NUL = "\u0000";

/** One value met by nulPath's walk: its key (null for the root) and its parent, so a path is built only when needed. */
interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

/**
 * The path of the first key or string value holding U+0000 (`links.0.notes`, or `body`), or null.
 * Depth-first in key order, a key judged before its value. Iterative, with an explicit stack, so it is
 * linear in the size of the value and no depth overflows it (bodies are also refused over MAX_JSON_DEPTH
 * before parsing, lib/http/read-body.ts; query strings are flat).
 */
export function nulPath(value: unknown): string | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    if (visit.key?.includes(NUL)) return pathOf(visit, visit.key.replaceAll(NUL, "\\u0000"));
    const item = visit.value;
    if (typeof item === "string") {
      if (item.includes(NUL)) return pathOf(visit, visit.key) || "body";
      continue;
    }
    if (typeof item !== "object" || item === null) continue;
    const entries = Object.entries(item);
    // Pushed last to first, so the first key is judged (and searched) first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      stack.push({ value: child, key, parent: visit });
    }
  }
  return null;
}

/** The dotted path of `visit`, its own key written as `last`. */
function pathOf(visit: Visit, last: string | null): string {
  const keys: string[] = [];
  if (last !== null) keys.push(last);
  for (let at = visit.parent; at !== null; at = at.parent) if (at.key !== null) keys.push(at.key);
  return keys.reverse().join(".");
}

/** The message of a field that holds U+0000. */
export function nulMessage(field: string): string {
  return `${field}: must not contain the NUL character (U+0000).`;
}

/** 400 INVALID_REQUEST naming the first field of `value` that holds U+0000. */
export function rejectNul(value: unknown, hint?: string): void {
  const path = nulPath(value);
  if (path !== null) throw new ApiError("INVALID_REQUEST", nulMessage(path), hint === undefined ? {} : { hint });
}

/** Whether a path or id segment holds U+0000 (no stored id does). */
export function hasNul(text: string): boolean {
  return text.includes(NUL);
}
