import { authorize, type AccountContext } from "../auth/guard";
import type { Permission } from "../auth/roles";
import type { ZodType } from "zod";
import { errorResponse, methodNotAllowed } from "./http";
import { readJsonBody } from "./read-body";

type Params = Record<string, string | string[] | undefined>;
type RouteContext = { params: Promise<Params> };

/** One method of an account route: the permission it needs and the handler that runs once it is granted. */
export interface AccountMethod {
  permission: Permission;
  handler: (ctx: AccountContext, request: Request, params: Params) => Promise<Response>;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * The only way to write an account route (`app/api/account/**`; a lint rule forbids other exports there):
 * every method runs the guard's check order before its handler, errors leave as the Error body, and
 * methods not given answer 405 with Allow.
 *
 *   export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({ GET: { permission, handler } });
 */
export function accountRoute(methods: Partial<Record<Method, AccountMethod>>) {
  const allow = METHODS.filter((m) => methods[m]);
  const wrap = (method: Method) => async (request: Request, route: RouteContext): Promise<Response> => {
    const spec = methods[method];
    if (!spec) return methodNotAllowed(request, allow);
    try {
      const ctx = await authorize(request, spec.permission);
      return await spec.handler(ctx, request, (await route?.params) ?? {});
    } catch (error) {
      return errorResponse(error, request);
    }
  };
  const notAllowed = async (request: Request) => methodNotAllowed(request, allow);
  return {
    GET: wrap("GET"),
    POST: wrap("POST"),
    PUT: wrap("PUT"),
    PATCH: wrap("PATCH"),
    DELETE: wrap("DELETE"),
    HEAD: notAllowed,
    OPTIONS: notAllowed,
  };
}

/** `?limit=` (1–100, default 50) and `?cursor=` of every account list; parseQuery for other query strings. */
export { parseListQuery, parseQuery } from "./list-query";

/**
 * Reads a small JSON body (16 KiB unless a route needs more, e.g. a domain group's 500 hostnames) and
 * validates it with a strict zod schema (400 names the field; over the cap 413).
 */
export async function parseBody<T>(request: Request, schema: ZodType<T>, maxBytes = 16 * 1024): Promise<T> {
  const parsed = schema.safeParse(await readJsonBody(request, maxBytes));
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}
