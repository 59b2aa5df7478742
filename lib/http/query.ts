import type { z } from "zod";
import { ApiError } from "../errors";
import { describeZodError } from "./error-body";
import { rejectNul } from "./nul";

/** The 400 hint of a list's `?limit=` / `?cursor=` (lib/schemas/common.ts `listPaging`). */
export const LIST_HINT = "Lists take ?limit= (1–100) and ?cursor= from the previous page's nextCursor.";

/** The 400 hint of a query parameter when the operation gives none of its own. */
export const QUERY_HINT = "Fix or remove the query parameter the message names.";

/** A route's query string through a strict zod object: an unknown or invalid parameter (or one holding U+0000) is a 400 naming it. */
export function parseQuery<T>(request: Request, schema: z.ZodType<T>, hint = QUERY_HINT): T {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  rejectNul(params, hint);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new ApiError("INVALID_REQUEST", describeZodError(parsed.error, "query"), { hint });
  return parsed.data;
}
