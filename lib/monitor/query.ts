import type { ZodType } from "zod";
import { describeZodError } from "../api/errors";
import { readJsonBody } from "../api/read-body";
import { ApiError } from "../errors";

/** Parses a route's query string with a strict schema: an unknown or bad parameter is a 400 naming it. */
export function parseQuery<T>(request: Request, schema: ZodType<T>, hint: string): T {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new ApiError("INVALID_REQUEST", describeZodError(parsed.error), { hint });
  return parsed.data;
}

/** A JSON body up to `maxBytes` (POST /monitors may carry 100 links with notes), validated by a strict schema. */
export async function parseJson<T>(request: Request, schema: ZodType<T>, maxBytes: number): Promise<T> {
  const parsed = schema.safeParse(await readJsonBody(request, maxBytes));
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}
