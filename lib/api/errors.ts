import { ZodError } from "zod";

/**
 * The one error model of LinkLens: every non-2xx answer is `{ success:false, error, errorCode, hint, docs }`.
 * The table below is the single place that ties an errorCode to its HTTP status.
 */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_URL: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  INVALID_ORIGIN: 403,
  BLOCKED_URL: 403,
  BLOCKED_REDIRECT: 403,
  BOT_DETECTED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE_PAGE: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
/** Codes only account routes answer; the public description (OpenAPI enum, /docs) does not list them. */
export const ACCOUNT_ONLY_CODES: readonly ErrorCode[] = ["CONFLICT"];
/** The codes of the public API. */
export const ERROR_CODES = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => !ACCOUNT_ONLY_CODES.includes(code));

/** What to do next, per code; an ApiError may give a more precise hint. */
export const DEFAULT_HINTS: Record<ErrorCode, string> = {
  INVALID_REQUEST:
    'Send a JSON object with exactly one of {"url": "https://…"} or {"html": "<…>", "domain": "example.com"} and Content-Type: application/json.',
  INVALID_URL: "Send an absolute public http(s) URL on port 80 or 443, without credentials, at most 2,048 characters.",
  UNAUTHORIZED: "Sign in to the web app; account APIs need a session cookie.",
  FORBIDDEN: "Your role does not allow this change.",
  INVALID_ORIGIN: "Send the mutation from the web app's own origin.",
  BLOCKED_URL: "Only public web pages can be analysed. Paste the page's HTML instead if you can see it.",
  BLOCKED_REDIRECT: "The page redirects to an address LinkLens may not fetch. Paste the page's HTML instead.",
  BOT_DETECTED: "URL mode is for people in a browser. Use paste mode (send the page's HTML) or a signed-in audit.",
  NOT_FOUND: "See GET /api/v1 for the list of public operations.",
  METHOD_NOT_ALLOWED: "Use the method given in the Allow header.",
  CONFLICT: "Something with the same name or address already exists in the organization; change it or use the existing one.",
  PAYLOAD_TOO_LARGE: "Send less HTML: trim the page to the part whose links you need.",
  UNPROCESSABLE_PAGE: "Check that the URL opens a public HTML page in a browser, or paste its HTML instead.",
  RATE_LIMITED: "Wait until the time in the X-RateLimit-Reset header (Unix seconds), then retry.",
  INTERNAL_ERROR: "Retry in a moment; if it keeps failing, contact support with the X-Request-Id header.",
  UPSTREAM_ERROR: "The page could not be fetched or rendered. Retry later, or paste the page's HTML instead.",
};

export interface ErrorBody {
  success: false;
  error: string;
  errorCode: ErrorCode;
  hint: string;
  docs: string;
}

const API_ERROR_BRAND = Symbol.for("linklens.ApiError");

/**
 * An error meant for the client: its message and hint are safe to show.
 *
 * `instanceof ApiError` is decided by a registered-symbol brand, not the prototype chain: Next bundles
 * route code separately from the server entry, so objects shared through globalThis (the worker pool,
 * the browser) may throw an ApiError made by another copy of this class.
 */
export class ApiError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[API_ERROR_BRAND] === true;
  }

  readonly [API_ERROR_BRAND] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly hint: string;
  /** Extra response headers (Allow, Retry-After, rate-limit headers). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { hint?: string; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.hint = options.hint ?? DEFAULT_HINTS[code];
    this.headers = options.headers ?? {};
  }
}

/** The first zod issue as `path: message`, the way a client can act on it. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request body.";
  const path = issue.path.length > 0 ? issue.path.join(".") : "body";
  return `${path}: ${issue.message}`;
}

/**
 * Turns anything thrown into a status and an Error body. Unknown errors become a generic 500
 * with no internals; the caller logs the original with its request id.
 */
export function toErrorBody(error: unknown, docsUrl: string): { status: number; body: ErrorBody; headers: Record<string, string>; expected: boolean } {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      headers: error.headers,
      expected: true,
      body: { success: false, error: error.message, errorCode: error.code, hint: error.hint, docs: docsUrl },
    };
  }
  if (error instanceof ZodError) {
    return {
      status: 400,
      headers: {},
      expected: true,
      body: { success: false, error: describeZodError(error), errorCode: "INVALID_REQUEST", hint: DEFAULT_HINTS.INVALID_REQUEST, docs: docsUrl },
    };
  }
  return {
    status: 500,
    headers: {},
    expected: false,
    body: {
      success: false,
      error: "Something went wrong on our side.",
      errorCode: "INTERNAL_ERROR",
      hint: DEFAULT_HINTS.INTERNAL_ERROR,
      docs: docsUrl,
    },
  };
}
