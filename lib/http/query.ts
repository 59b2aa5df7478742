import { z, type ZodRawShape } from "zod";
import { ApiError } from "../errors";
import { describeZodError } from "./error-body";
import { rejectNul } from "./nul";

const listShape = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(512).optional(),
};

const LIST_HINT = "Lists take ?limit= (1–100) and ?cursor= from the previous page's nextCursor.";

/**
 * `?limit=` (1–100, default 50) and `?cursor=`, plus a list's own filters in `extra` (e.g. the audits'
 * `?url=`); anything else in the query is a 400.
 */
export function parseListQuery(request: Request): { limit: number; cursor?: string };
export function parseListQuery<E extends ZodRawShape>(
  request: Request,
  extra: E,
  hint?: string,
): z.infer<z.ZodObject<typeof listShape & E>>;
export function parseListQuery(request: Request, extra: ZodRawShape = {}, hint = LIST_HINT) {
  return parseQuery(request, z.strictObject({ ...listShape, ...extra }), hint);
}

/** A route's query string through a strict zod object: an unknown or invalid parameter (or one holding U+0000) is a 400 naming it. */
export function parseQuery<T>(
  request: Request,
  schema: z.ZodType<T>,
  hint = "Fix or remove the query parameter the message names.",
): T {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  rejectNul(params, hint);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new ApiError("INVALID_REQUEST", describeZodError(parsed.error, "query"), { hint });
  return parsed.data;
}
