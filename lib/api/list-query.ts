import { z } from "zod";
import { ApiError } from "../errors";
import { describeZodError } from "./errors";

const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(512).optional(),
});

/** `?limit=` (1–100, default 50) and `?cursor=`; anything else in the query is a 400. */
export function parseListQuery(request: Request): { limit: number; cursor?: string } {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = listQuery.safeParse(params);
  if (!parsed.success) throw new ApiError("INVALID_REQUEST", describeZodError(parsed.error), { hint: "Lists take ?limit= (1–100) and ?cursor= from the previous page's nextCursor." });
  return parsed.data;
}
