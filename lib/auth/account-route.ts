import { authorize, type AccountContext } from "./guard";
import { processRuntime } from "../db/runtime";
import type { Permission } from "./roles";
import { ZodError } from "zod";
import { ApiError, ERRORS } from "../errors";
import { describeZodError } from "../http/error-body";
import { errorResponse, methodNotAllowed } from "../http/response";
import { hasNul } from "../http/nul";
import type { AccountMethod as Method, AccountOperation } from "../schemas/operation-entry";
import type { OPERATIONS } from "../schemas/operations";
import { answerResponse, type AnswerOf } from "./operation-answer";
import { readOperationBody, readOperationQuery, type OperationInput, type ParamsOf } from "./operation-input";

export { withHeaders } from "./operation-answer";

/** A catalog entry whose permission names resources and actions of lib/auth/roles.ts. */
export type Operation = AccountOperation & { readonly permission: Permission };

/** Every entry of the catalog asks for permissions roles.ts defines: a misspelt one fails to compile here. */
type Expect<T extends true> = T;
type _CatalogPermissionsExist = Expect<(typeof OPERATIONS)[keyof typeof OPERATIONS] extends Operation ? true : false>;

/** One method of an account route: its catalog entry and the handler that runs once the entry's checks pass. */
export interface AccountMethod<O extends Operation> {
  /** The catalog entry (lib/schemas/operations.ts): permission, query, body, body cap, status, answer. */
  operation: O;
  /**
   * Finds what the path's id names in the active organization (404 when it is not there), before the
   * query or the body is read: check 5 of docs/spec/account-api.md's order (unknown ids → 404) comes before check 6
   * (validation → 400). Give it on every method that takes both an id and a query or a body.
   */
  resource?: (ctx: AccountContext, params: ParamsOf<O>) => Promise<unknown>;
  handler: (ctx: AccountContext, input: OperationInput<O>) => Promise<AnswerOf<O>>;
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

/** Marks the handlers a route implements (not its 405s), so a test can list every account operation. */
export const IMPLEMENTED = Symbol.for("linklens.accountRoute.implemented");
/** The catalog entry a handler serves, so a test can hold each route against its entry. */
export const OPERATION = Symbol.for("linklens.accountRoute.operation");

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** The path's parameters as strings; one holding U+0000 names nothing (PostgreSQL would refuse the lookup: a 500). */
async function pathParams(route: RouteContext | undefined): Promise<Record<string, string>> {
  const params = Object.fromEntries(
    Object.entries((await route?.params) ?? {}).map(([name, value]) => [name, String(value)]),
  );
  if (Object.values(params).some(hasNul))
    throw new ApiError("NOT_FOUND", "Nothing with this id exists in your organization.");
  return params;
}

/**
 * The only way to write an account route (`app/api/account/**`; a lint rule forbids other exports there):
 * each method names its catalog entry, runs the guard's check order for the entry's permission, has its
 * path's id found, its query and body read as the entry says, and its answer sent with the entry's
 * status; errors leave as the Error body, and methods not given answer 405 with Allow.
 *
 *   export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
 *     POST: { operation: OPERATIONS.createMonitor, handler: async (ctx, { body }) => createMonitor(ctx, body) },
 *   });
 */
export function accountRoute<
  G extends Operation & { method: "GET" },
  P extends Operation & { method: "POST" },
  U extends Operation & { method: "PUT" },
  A extends Operation & { method: "PATCH" },
  D extends Operation & { method: "DELETE" },
>(methods: {
  GET?: AccountMethod<G>;
  POST?: AccountMethod<P>;
  PUT?: AccountMethod<U>;
  PATCH?: AccountMethod<A>;
  DELETE?: AccountMethod<D>;
}) {
  const allow = METHODS.filter((m) => methods[m]);
  const wrap =
    (method: Method) =>
    async (request: Request, route: RouteContext): Promise<Response> => {
      const spec = methods[method] as AccountMethod<Operation> | undefined;
      if (!spec) return methodNotAllowed(request, allow);
      const { operation } = spec;
      try {
        const ctx = await authorize(request, operation.permission, processRuntime(), {
          twoFactorExempt: operation.twoFactorExempt,
        });
        const params = (await pathParams(route)) as ParamsOf<Operation>;
        if (spec.resource) await spec.resource(ctx, params);
        const query = readOperationQuery(request, operation);
        const body = await readOperationBody(request, operation);
        const answer = await spec.handler(ctx, { request, params, query, body } as OperationInput<Operation>);
        return answerResponse(operation, answer);
      } catch (error) {
        return errorResponse(withRequestHint(error, operation.requestHint ?? ACCOUNT_REQUEST_HINT), request);
      }
    };
  const notAllowed = async (request: Request) => methodNotAllowed(request, allow);
  const handler = (method: Method) =>
    Object.assign(wrap(method), { [IMPLEMENTED]: allow.includes(method), [OPERATION]: methods[method]?.operation });
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
