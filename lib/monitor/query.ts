import type { ZodType } from "zod";
import { rejectNul } from "../api/nul";
import { readJsonBody } from "../api/read-body";

/** The account routes' query parser (strict: an unknown or bad parameter is a 400 naming it). */
export { parseQuery } from "../api/list-query";

/** A JSON body up to `maxBytes` (POST /monitors may carry 100 links with notes), validated by a strict schema. */
export async function parseJson<T>(request: Request, schema: ZodType<T>, maxBytes: number): Promise<T> {
  const body = await readJsonBody(request, maxBytes);
  rejectNul(body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}
