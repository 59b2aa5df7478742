import { z } from "zod";

/**
 * Building blocks of the account API's schemas (docs/spec/account-api.md "Routes, sessions and errors"): ids are
 * opaque strings, times ISO 8601 UTC, lists `{ items, nextCursor }` with `?limit=` and `?cursor=`.
 */

export const isoTime = z.iso.datetime({ offset: true });

/** An id as a body or query names it (opaque; the lookup decides whether it exists). */
export const idField = z.string().min(1).max(200);

/** `?limit=` (1–100, default 50) and `?cursor=` of every account list. */
export const listPaging = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(512).optional(),
};

/** The answer of every account list: a page of `item` and the cursor of the next (null on the last). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), nextCursor: z.string().nullable() });
}

export type Page<T> = { items: T[]; nextCursor: string | null };

/** C0 and C1 control characters (CR, LF and TAB among them) and the Unicode line and paragraph separators. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
