import { clientKeyOf } from "../http/client-key";
import { ApiError, errorAnchor, ERRORS, type ErrorCode } from "../errors";
import { docsPageUrl, siteOrigin } from "../http/origin";
import { errorResponse, jsonResponse } from "../http/response";
import { requestIdOf } from "../http/request-id";
import { rejectNul } from "../http/nul";
import { readBodyText, rejectDeepJson } from "../http/read-body";
import { getConfig, listenOrigin } from "../config";
import { log } from "../log";
import { getAuth } from "./index";
import { processRuntime } from "../db/runtime";
import { proveInvitedAddress } from "./invitation-proof";
import { rejectBadNames } from "./names";
import { gateOrganizationRequest } from "./organization-gate";
import { checkAuthAttempt, LIMITED_AUTH_PATHS } from "./limits";
import { assertSameOrigin } from "./origin";
import { rejectOwnIssuer } from "./two-factor";

const BODY_LIMIT_BYTES = 64 * 1024;

const tooLarge = () =>
  new ApiError("PAYLOAD_TOO_LARGE", "The request body is too large.", { hint: "Send a JSON object of a few fields." });

/**
 * The body as JSON, read once for the checks in front of Better Auth; undefined when it is none (Better
 * Auth answers that). One nested too deep is refused unparsed: anyone may send it, and the checks below
 * (NUL, names, the sign-in limit) and Better Auth walk the value.
 */
function jsonOf(body: string): unknown {
  rejectDeepJson(body);
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** The email address a limited request's body names (null when none). */
function emailIn(json: unknown): string | null {
  const email = typeof json === "object" && json !== null ? (json as Record<string, unknown>).email : undefined;
  return typeof email === "string" && email.length <= 320 ? email : null;
}

const AUTH_REQUEST_HINT = "See docs/account-api.md for the fields of this operation.";

const STATUS_CODES: Record<number, ErrorCode> = {
  400: "INVALID_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  429: "RATE_LIMITED",
};

/** Better Auth codes renamed to the names docs/spec/account-api.md uses (its example: 422 USER_ALREADY_EXISTS). */
const SPEC_CODES: Record<string, string> = { USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "USER_ALREADY_EXISTS" };

/**
 * Better Auth answers failures as `{ code, message }` (or an empty body): rewritten into the public
 * Error body, keeping the status and using Better Auth's code as `errorCode`.
 */
async function toPublicError(response: Response, request: Request): Promise<Response> {
  let code: string | undefined;
  let message: string | undefined;
  try {
    const body = (await response.clone().json()) as { code?: unknown; message?: unknown };
    if (typeof body.code === "string" && /^[A-Z0-9_]{1,80}$/.test(body.code)) code = SPEC_CODES[body.code] ?? body.code;
    if (typeof body.message === "string" && body.message.length <= 300) message = body.message;
  } catch {
    // not JSON: keep the status, describe it generically
  }
  if (response.status >= 500)
    return errorResponse(new Error(`Better Auth ${response.status}: ${code ?? ""} ${message ?? ""}`), request);
  // Better Auth answers some role refusals (remove-member by a member) 401, which tells a signed-in
  // client its session is gone; docs/spec/account-api.md's check 4 makes a role failure 403.
  const status = response.status === 401 && code?.startsWith("YOU_ARE_NOT_ALLOWED") ? 403 : response.status;
  const headers: Record<string, string> = {};
  for (const name of ["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    const value = response.headers.get(name);
    if (value) headers[name] = value;
  }
  const out = authError(request, status, code ?? STATUS_CODES[status] ?? "INVALID_REQUEST", message, headers);
  for (const cookie of response.headers.getSetCookie()) out.headers.append("set-cookie", cookie);
  return out;
}

/** The Error body of an /api/auth failure whose code is Better Auth's (outside lib/errors.ts's table) or the table's. */
function authError(
  request: Request,
  status: number,
  errorCode: string,
  message: string | undefined,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(
    {
      success: false,
      error: message ?? (status === 404 ? "No account operation lives at this path." : "The request was refused."),
      errorCode,
      hint: isTableCode(errorCode) ? ERRORS[errorCode].hint : hintFor(status, errorCode),
      docs: `${docsPageUrl(siteOrigin(request))}#${isTableCode(errorCode) ? errorAnchor(errorCode) : "errors"}`,
    },
    { status, headers: { "x-request-id": requestIdOf(request), ...headers } },
  );
}

function isTableCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/** Hints for Better Auth's own codes, by code where the status alone would mislead. */
const CODE_HINTS: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Check the email address and password, or sign in with an emailed link.",
  USER_ALREADY_EXISTS: "An account with this email already exists: sign in, or reset its password.",
  INVALID_TOKEN: "The link is spent or has expired: ask for a new one.",
  TOKEN_EXPIRED: "The link has expired: ask for a new one.",
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION:
    "Open the link of the invitation email (it confirms the address), or confirm the address from the sign-up email first.",
};

function hintFor(status: number, code: string): string {
  const byCode = CODE_HINTS[code];
  if (byCode) return byCode;
  if (status === 403 || code.startsWith("YOU_ARE_NOT_ALLOWED"))
    return "Your role in this organization does not allow this; an owner or admin can change it.";
  if (status === 401) return "Sign in first, or check the credentials this operation takes.";
  return AUTH_REQUEST_HINT;
}

/**
 * Better Auth endpoints that are closed. add-member adds a user without an invitation (Better Auth
 * serves it to server code only); the team endpoints it has over HTTP stay open, with the spec's rules
 * in front (organization-gate.ts).
 */
const REPLACED_PATHS: Record<string, string> = {
  "/organization/add-member": "POST /api/account/invitations",
};

/**
 * The request Better Auth sees, with the body already read (capped, so no body of any size reaches it).
 *
 * Its URL: with SITE_URL set, that is the base of every link and redirect. Without it Better Auth takes
 * its base from the request's URL, so this chooses that URL: the links it emails (sign-in, reset,
 * verification: POSTs anyone may send) use the listen address, never a Host header the sender wrote (a
 * forged Host would put the sender's server into a stranger's sign-in link); the redirect after
 * following such a link (a GET) returns to the host the browser used, where its cookie was set.
 *
 * Its body: an empty one is none. A POST without a body (sign-out from a script) reaches a route handler
 * with an empty body stream, which Better Auth would refuse 415 for want of a Content-Type.
 */
function forBetterAuth(request: Request, body: string): Request {
  const config = getConfig();
  const url = new URL(request.url);
  const origin = config.SITE_URL ? url.origin : request.method === "GET" ? siteOrigin(request) : listenOrigin(config);
  return new Request(new URL(`${url.pathname}${url.search}`, origin), {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: body === "" ? null : body,
  });
}

/**
 * 400 naming the query parameter or JSON field that holds U+0000: Better Auth would pass it to
 * PostgreSQL, which refuses it (a 500 for a name, a token, an id).
 */
function rejectNulInput(request: Request, json: unknown): void {
  rejectNul(Object.fromEntries(new URL(request.url).searchParams), AUTH_REQUEST_HINT);
  rejectNul(json, AUTH_REQUEST_HINT);
}

/**
 * Whether the body is JSON, the one encoding /api/auth takes. Better Auth also takes sign-in/email and
 * sign-up/email as forms (application/x-www-form-urlencoded), but every check in front of it (NUL, names,
 * the per-email limit, the team gate, the invitation proof) reads JSON: a form body walked past them all.
 * Nothing of LinkLens posts forms there, so one encoding is the whole rule, and what the checks read is
 * what Better Auth reads (it compares the media type the same way).
 */
function isJson(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

/** The handler of every method under /api/auth/*. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  try {
    assertSameOrigin(request);
    const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
    const replacement = REPLACED_PATHS[path];
    if (replacement)
      throw new ApiError("NOT_FOUND", "This operation lives under /api/account.", { hint: `Use ${replacement}.` });
    const readsBody = request.body !== null && request.method !== "GET" && request.method !== "HEAD";
    const body = readsBody ? await readBodyText(request, BODY_LIMIT_BYTES, tooLarge) : "";
    if (body !== "" && !isJson(request))
      return authError(request, 415, "UNSUPPORTED_MEDIA_TYPE", "This operation takes a JSON body.");
    const json = jsonOf(body);
    rejectNulInput(request, json);
    rejectBadNames(path, json, AUTH_REQUEST_HINT);
    rejectOwnIssuer(path, json, AUTH_REQUEST_HINT);
    if (request.method === "POST" && LIMITED_AUTH_PATHS.has(path)) {
      await checkAuthAttempt(clientKeyOf(request), emailIn(json));
    }
    const runtime = processRuntime();
    if (request.method === "POST") await proveInvitedAddress(runtime, path, request, json);
    const afterSuccess = request.method === "POST" ? await gateOrganizationRequest(runtime, path, request, json) : null;
    const response = await getAuth(request).handler(forBetterAuth(request, body));
    if (response.status < 400) {
      // The change happened: a failed audit row is logged, not answered as a failure of the change.
      await afterSuccess?.(response).catch((error: unknown) =>
        log.error({ err: error, path }, "audit row of a team change not written"),
      );
      return response;
    }
    return await toPublicError(response, request);
  } catch (error) {
    return errorResponse(error, request);
  }
}
