/**
 * The one error table of LinkLens. Every non-2xx answer is `{ success:false, error, errorCode, hint, docs }`;
 * this table is the only place a code's HTTP status, default hint and documentation text are written.
 * /docs, /llms.txt, the OpenAPI document, the Error schema and every layer that throws derive from it.
 *
 * Imports nothing, so every layer (lib/net, lib/analyzer, lib/api, the product's floors, server/ and the
 * browser's components) may import it without creating a cycle. The zod-aware half (turning a ZodError into a body) lives in
 * lib/http/error-body.ts.
 */

export interface ErrorRow {
  /** HTTP status of the answer. */
  readonly status: number;
  /** What to do next; an ApiError may give a more precise hint. */
  readonly hint: string;
  /** When the code is answered, for /docs and /llms.txt. */
  readonly when: string;
  /** False for codes only the signed-in account API answers (documented apart from the public surface). */
  readonly public: boolean;
}

export const ERRORS = {
  INVALID_REQUEST: {
    status: 400,
    public: true,
    hint: 'Send a JSON object with exactly one of {"url": "https://…"} or {"html": "<…>", "domain": "example.com"} and Content-Type: application/json.',
    when: "Body is not JSON, not an object, matches neither or both shapes, has extra fields or wrong types, bad domain, or wrong Content-Type.",
  },
  INVALID_URL: {
    status: 400,
    public: true,
    hint: "Send an absolute public http(s) URL on port 80 or 443, without credentials, at most 2,048 characters.",
    when: "url is not an absolute public http(s) URL: credentials, over 2,048 characters, a port other than 80/443, or a non-public host such as localhost or a private IP.",
  },
  UNAUTHORIZED: {
    status: 401,
    public: true,
    hint: "Sign in to the web app; account APIs need a session cookie.",
    when: "Account API called without a valid session.",
  },
  FORBIDDEN: {
    status: 403,
    public: true,
    hint: "Your role does not allow this change.",
    when: "Account mutation rejected because of the caller's role in the organization.",
  },
  INVALID_ORIGIN: {
    status: 403,
    public: true,
    hint: "Send the mutation from the web app's own origin.",
    when: "Account mutation rejected by the cross-site origin check.",
  },
  TWO_FACTOR_REQUIRED: {
    status: 403,
    public: false,
    hint: "Your team requires two-factor sign-in: turn it on in Settings → Security (/app/settings#security), then try again.",
    when: "The active organization requires two-factor sign-in and the caller has not turned it on (every account route but a few about the caller's own membership).",
  },
  BLOCKED_URL: {
    status: 403,
    public: true,
    hint: "Only public web pages can be analysed. Paste the page's HTML instead if you can see it.",
    when: "The host resolves to a non-public address, or is on the operator's deny list.",
  },
  BLOCKED_REDIRECT: {
    status: 403,
    public: true,
    hint: "The page redirects to an address LinkLens may not fetch. Paste the page's HTML instead.",
    when: "The page or one of its redirects leads to a non-public address or a non-http(s) scheme.",
  },
  BOT_DETECTED: {
    status: 403,
    public: true,
    hint: "URL mode is for people in a browser. Use paste mode (send the page's HTML) or a signed-in audit.",
    when: "URL mode only: the request looks automated (missing or bot User-Agent).",
  },
  NOT_FOUND: {
    status: 404,
    public: true,
    hint: "See GET /api/v1 for the list of public operations.",
    when: "The path is not a public operation.",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    public: true,
    hint: "Use the method given in the Allow header.",
    when: "Wrong HTTP method; the Allow header lists the right ones. The analyzer is POST only.",
  },
  CONFLICT: {
    status: 409,
    public: false,
    hint: "Reload the resource and retry with its current state.",
    when: "Account mutation conflicts with the current state (a duplicate name, an existing member, a stale change).",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    public: true,
    hint: "Send less HTML: trim the page to the part whose links you need.",
    when: "html is larger than the byte limit, or the whole body is.",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    public: false,
    hint: "Send the body as the media type the operation takes: application/json (every JSON body, /api/auth included), or image/png or image/jpeg for a logo.",
    when: "The body's Content-Type is not one the operation takes: a logo that is not PNG or JPEG (SVG, GIF and WebP included), a body under /api/auth that is not JSON.",
  },
  UNPROCESSABLE_PAGE: {
    status: 422,
    public: true,
    hint: "Check that the URL opens a public HTML page in a browser, or paste its HTML instead.",
    when: "The page answered 4xx, is not HTML, is too large once rendered, or could not be analysed in time.",
  },
  RATE_LIMITED: {
    status: 429,
    public: true,
    hint: "Wait until the time in the X-RateLimit-Reset header (Unix seconds), then retry.",
    when: "Per-IP limit hit, render queue full, or monthly URL budget spent (the message says which).",
  },
  INTERNAL_ERROR: {
    status: 500,
    public: true,
    hint: "Retry in a moment; if it keeps failing, contact support with the X-Request-Id header.",
    when: "Unexpected failure on our side; nothing internal is shown. Quote the X-Request-Id header.",
  },
  UPSTREAM_ERROR: {
    status: 502,
    public: true,
    hint: "The page could not be fetched or rendered. Retry later, or paste the page's HTML instead.",
    when: "DNS, connection, TLS or timeout failure, HTTP 5xx from the page, or the browser failed.",
  },
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof ERRORS;

/** Every code, in table order (status ascending). */
export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** The HTTP status of a code. */
export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}

/** The id of a code's row on /docs, so an Error body's `docs` can point at it. */
export function errorAnchor(code: ErrorCode): string {
  // The public /docs has a row per public code only (docs/spec/account-api.md keeps the signed-in product out of
  // the public description); an account-only code points at the Errors section.
  return ERRORS[code].public ? `error-${code}` : "errors";
}

/** The five-field Error body every non-2xx answer carries. */
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
  /** The analysed page's own HTTP status when it caused the error (a 404 page, a 503): monitors record it. Never sent to clients. */
  readonly upstreamStatus: number | null;

  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; headers?: Record<string, string>; cause?: unknown; upstreamStatus?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.status = ERRORS[code].status;
    this.hint = options.hint ?? ERRORS[code].hint;
    this.headers = options.headers ?? {};
    this.upstreamStatus = options.upstreamStatus ?? null;
  }
}
