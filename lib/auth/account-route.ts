import { authorize, type AccountContext } from "./guard";
import type { Permission } from "./roles";
import { ZodError, type ZodType } from "zod";
import { ApiError, ERRORS } from "../errors";
import { describeZodError } from "../http/error-body";
import { errorResponse, methodNotAllowed } from "../http/response";
import { hasNul, rejectNul } from "../http/nul";
import { readBodyBytes, readJsonBody, tooLarge } from "../http/read-body";

type Params = Record<string, string | string[] | undefined>;
type RouteContext = { params: Promise<Params> };

/** One method of an account route: the permission it needs and the handler that runs once it is granted. */
export interface AccountMethod {
  permission: Permission;
  handler: (ctx: AccountContext, request: Request, params: Params) => Promise<Response>;
  /**
   * The hint of a 400 INVALID_REQUEST that names no hint of its own. Default: the account routes' one;
   * POST /api/account/audits takes the public analyzer's request shapes and keeps the public hint.
   */
  requestHint?: string;
  /**
   * Finds what the path's id names in the active organization (404 when it is not there), before the
   * handler reads a body: check 5 of docs/spec/account-api.md's order (unknown ids → 404) comes before check 6
   * (body validation → 400). Give it on every method that takes both an id and a body.
   */
  resource?: (ctx: AccountContext, params: Params) => Promise<unknown>;
}

/** The error table's INVALID_REQUEST hint describes the public analyzer's body; account routes take others. */
export const ACCOUNT_REQUEST_HINT =
  "Fix the field the message names: docs/account-api.md lists what each account operation takes. JSON bodies need Content-Type: application/json.";

/** The error table's PAYLOAD_TOO_LARGE hint is about pasted HTML; account bodies are small JSON or CSV. */
const ACCOUNT_TOO_LARGE_HINT = "Send a smaller body: docs/account-api.md gives each operation's limits.";

/**
 * A 400 without a hint of its own (a zod failure, a bare ApiError) gets `hint`, a 413 without one the
 * account routes' size hint; anything else is as thrown.
 */
function withRequestHint(error: unknown, hint: string): unknown {
  if (error instanceof ZodError) return new ApiError("INVALID_REQUEST", describeZodError(error), { hint });
  if (error instanceof ApiError && error.code === "PAYLOAD_TOO_LARGE" && error.hint === ERRORS.PAYLOAD_TOO_LARGE.hint) {
    return new ApiError("PAYLOAD_TOO_LARGE", error.message, {
      hint: ACCOUNT_TOO_LARGE_HINT,
      headers: error.headers,
      cause: error.cause,
    });
  }
  if (error instanceof ApiError && error.code === "INVALID_REQUEST" && error.hint === ERRORS.INVALID_REQUEST.hint) {
    return new ApiError("INVALID_REQUEST", error.message, { hint, headers: error.headers, cause: error.cause });
  }
  return error;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** Marks the handlers a route implements (not its 405s), so a test can list every account operation. */
export const IMPLEMENTED = Symbol.for("linklens.accountRoute.implemented");

/**
 * The only way to write an account route (`app/api/account/**`; a lint rule forbids other exports there):
 * every method runs the guard's check order before its handler, errors leave as the Error body, and
 * methods not given answer 405 with Allow.
 *
 *   export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({ GET: { permission, handler } });
 */
export function accountRoute(methods: Partial<Record<Method, AccountMethod>>) {
  const allow = METHODS.filter((m) => methods[m]);
  const wrap =
    (method: Method) =>
    async (request: Request, route: RouteContext): Promise<Response> => {
      const spec = methods[method];
      if (!spec) return methodNotAllowed(request, allow);
      try {
        const ctx = await authorize(request, spec.permission);
        const params = (await route?.params) ?? {};
        // No stored id holds U+0000, and PostgreSQL would refuse the lookup (a 500): it names nothing.
        if (Object.values(params).some((value) => [value ?? ""].flat().some(hasNul)))
          throw new ApiError("NOT_FOUND", "Nothing with this id exists in your organization.");
        if (spec.resource) await spec.resource(ctx, params);
        return await spec.handler(ctx, request, params);
      } catch (error) {
        return errorResponse(withRequestHint(error, spec.requestHint ?? ACCOUNT_REQUEST_HINT), request);
      }
    };
  const notAllowed = async (request: Request) => methodNotAllowed(request, allow);
  const handler = (method: Method) => Object.assign(wrap(method), { [IMPLEMENTED]: allow.includes(method) });
  return {
    GET: handler("GET"),
    POST: handler("POST"),
    PUT: handler("PUT"),
    PATCH: handler("PATCH"),
    DELETE: handler("DELETE"),
    HEAD: notAllowed,
    OPTIONS: notAllowed,
  };
}

/** `?limit=` (1–100, default 50) and `?cursor=` of every account list; parseQuery for other query strings. */
export { parseListQuery, parseQuery } from "../http/query";

/** The body cap of the account routes, unless a route needs more (a domain group's 500 hostnames, an import). */
export const ACCOUNT_BODY_BYTES = 16 * 1024;

/**
 * Reads a small JSON body (16 KiB unless a route needs more, e.g. a domain group's 500 hostnames) and
 * validates it with a strict zod schema (400 names the field; over the cap 413).
 */
export async function parseBody<T>(request: Request, schema: ZodType<T>, maxBytes = ACCOUNT_BODY_BYTES): Promise<T> {
  const body = await readJsonBody(request, maxBytes);
  rejectNul(body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

/**
 * For an operation that takes no body: whatever is sent is read and dropped, and more than 16 KiB is 413
 * like every account route's body, before any work starts (a render must not wait on a client's upload).
 */
export async function skipSmallBody(request: Request): Promise<void> {
  await readBodyBytes(request, ACCOUNT_BODY_BYTES, () => tooLarge(ACCOUNT_BODY_BYTES));
}
