import { clientKeyOf } from "../api/client-key";
import { ApiError, errorAnchor, ERRORS, type ErrorCode } from "../errors";
import { docsPageUrl, errorResponse, jsonResponse, requestIdOf, siteOrigin } from "../api/http";
import { getConfig, listenOrigin } from "../config";
import { getAuth } from "./index";
import { checkAuthAttempt, LIMITED_AUTH_PATHS } from "./limits";
import { assertSameOrigin } from "./origin";

const BODY_LIMIT_BYTES = 64 * 1024;

/** The email address a limited request names, read from a copy of its body (null when none). */
async function emailOf(request: Request): Promise<string | null> {
  try {
    const text = await request.clone().text();
    if (text.length > BODY_LIMIT_BYTES) throw new ApiError("PAYLOAD_TOO_LARGE", "The request body is too large.", { hint: "Send a JSON object of a few fields." });
    const body: unknown = JSON.parse(text);
    const email = typeof body === "object" && body !== null ? (body as Record<string, unknown>).email : undefined;
    return typeof email === "string" && email.length <= 320 ? email : null;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return null;
  }
}

const STATUS_CODES: Record<number, ErrorCode> = { 400: "INVALID_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 409: "CONFLICT", 413: "PAYLOAD_TOO_LARGE", 429: "RATE_LIMITED" };

/** Better Auth codes renamed to the names account-api.md uses (its example: 422 USER_ALREADY_EXISTS). */
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
  if (response.status >= 500) return errorResponse(new Error(`Better Auth ${response.status}: ${code ?? ""} ${message ?? ""}`), request);
  const generic = STATUS_CODES[response.status] ?? "INVALID_REQUEST";
  const errorCode = code ?? generic;
  const headers: Record<string, string> = { "x-request-id": requestIdOf(request) };
  for (const name of ["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    const value = response.headers.get(name);
    if (value) headers[name] = value;
  }
  const out = jsonResponse(
    {
      success: false,
      error: message ?? (response.status === 404 ? "No account operation lives at this path." : "The request was refused."),
      errorCode,
      hint: isTableCode(errorCode) ? ERRORS[errorCode].hint : hintFor(response.status),
      docs: `${docsPageUrl(siteOrigin(request))}#${isTableCode(errorCode) ? errorAnchor(errorCode) : "errors"}`,
    },
    { status: response.status, headers },
  );
  for (const cookie of response.headers.getSetCookie()) out.headers.append("set-cookie", cookie);
  return out;
}

function isTableCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

function hintFor(status: number): string {
  if (status === 401) return "Check the email address and password, or sign in with an emailed link.";
  if (status === 422) return "An account with this email already exists: sign in, or reset its password.";
  return "See docs/account-api.md for the fields of this operation.";
}

/** Better Auth endpoints replaced by /api/account routes that apply the spec's team rules. */
const REPLACED_PATHS: Record<string, string> = {
  "/organization/invite-member": "POST /api/account/invitations",
  "/organization/cancel-invitation": "DELETE /api/account/invitations/{id}",
  "/organization/update-member-role": "PATCH /api/account/members/{id}",
  "/organization/remove-member": "DELETE /api/account/members/{id}",
  "/organization/add-member": "POST /api/account/invitations",
  "/organization/leave": "POST /api/account/organization/leave",
};

/**
 * The request Better Auth sees. With SITE_URL set, that is the base of every link and redirect. Without
 * it Better Auth takes its base from the request's URL, so this chooses that URL: the links it emails
 * (sign-in, reset, verification: POSTs anyone may send) use the listen address, never a Host header the
 * sender wrote (a forged Host would put the sender's server into a stranger's sign-in link); the redirect
 * after following such a link (a GET) returns to the host the browser used, where its cookie was set.
 */
function forBetterAuth(request: Request): Request {
  const config = getConfig();
  if (config.SITE_URL) return request;
  const url = new URL(request.url);
  const origin = request.method === "GET" ? siteOrigin(request) : listenOrigin(config);
  const target = new URL(`${url.pathname}${url.search}`, origin);
  if (target.href === url.href) return request;
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.body) {
    init.body = request.body;
    init.duplex = "half";
  }
  return new Request(target, init);
}

/** The handler of every method under /api/auth/*. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  try {
    assertSameOrigin(request);
    const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
    const replacement = REPLACED_PATHS[path];
    if (replacement) throw new ApiError("NOT_FOUND", "This operation lives under /api/account.", { hint: `Use ${replacement}.` });
    if (request.method === "POST" && LIMITED_AUTH_PATHS.has(path)) {
      await checkAuthAttempt(clientKeyOf(request), await emailOf(request));
    }
    const response = await getAuth(request).handler(forBetterAuth(request));
    if (response.status < 400) return response;
    return await toPublicError(response, request);
  } catch (error) {
    return errorResponse(error, request);
  }
}
