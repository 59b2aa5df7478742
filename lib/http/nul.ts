import { ApiError } from "../errors";

/**
 * U+0000 in text the account product stores or looks up. PostgreSQL (and PGlite) refuse it in `text`
 * and `jsonb` ("invalid byte sequence for encoding UTF8: 0x00"), so a NUL that reached a query was a
 * 500, and one in a CSV cell failed the whole import. It is refused where input enters instead, named
 * like any other invalid field. The analyzer's html is not checked: the HTML parser replaces NULs.
 */
const NUL = "\u0000";

/** The path of the first key or string value holding U+0000 (`links.0.notes`, or `body`), or null. */
export function nulPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") return value.includes(NUL) ? path.join(".") || "body" : null;
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return [...path, key.replaceAll(NUL, "\\u0000")].join(".");
    const found = nulPath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
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
