import { ZodError } from "zod";
import { ApiError, ERRORS, errorAnchor, type ErrorBody, type ErrorCode } from "../errors";

/**
 * The zod-aware half of the error model (the table itself is lib/errors.ts, which imports nothing):
 * turning anything thrown into the five-field Error body.
 */

/**
 * The first zod issue as `path: message`, the way a client can act on it; an issue about the whole
 * input (an unknown key) is named by `root`: "body", or "query" for a query string.
 */
export function describeZodError(error: ZodError, root: "body" | "query" = "body"): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid request ${root}.`;
  const path = issue.path.length > 0 ? issue.path.join(".") : root;
  return `${path}: ${issue.message}`;
}

/** A code's own row on the docs page: `${docsPage}#error-CODE`. */
export function errorDocsUrl(docsPage: string, code: ErrorCode): string {
  return `${docsPage}#${errorAnchor(code)}`;
}

/**
 * Turns anything thrown into a status and an Error body whose `docs` points at the code's row of
 * `docsPage` (the absolute /docs URL). Unknown errors become a generic 500 with no internals; the
 * caller logs the original with its request id.
 */
export function toErrorBody(
  error: unknown,
  docsPage: string,
): { status: number; body: ErrorBody; headers: Record<string, string>; expected: boolean } {
  const body = (errorCode: ErrorCode, message: string, hint: string): ErrorBody => ({
    success: false,
    error: message,
    errorCode,
    hint,
    docs: errorDocsUrl(docsPage, errorCode),
  });
  if (error instanceof ApiError) {
    return {
      status: error.status,
      headers: error.headers,
      expected: true,
      body: body(error.code, error.message, error.hint),
    };
  }
  if (error instanceof ZodError) {
    return {
      status: ERRORS.INVALID_REQUEST.status,
      headers: {},
      expected: true,
      body: body("INVALID_REQUEST", describeZodError(error), ERRORS.INVALID_REQUEST.hint),
    };
  }
  return {
    status: ERRORS.INTERNAL_ERROR.status,
    headers: {},
    expected: false,
    body: body("INTERNAL_ERROR", "Something went wrong on our side.", ERRORS.INTERNAL_ERROR.hint),
  };
}
