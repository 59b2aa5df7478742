import type { ZodType } from "zod";
import { describeZodError } from "../api/errors";
import { ApiError } from "../errors";

/** Parses a route's query string with a strict schema: an unknown or bad parameter is a 400 naming it. */
export function parseQuery<T>(request: Request, schema: ZodType<T>, hint: string): T {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new ApiError("INVALID_REQUEST", describeZodError(parsed.error), { hint });
  return parsed.data;
}
