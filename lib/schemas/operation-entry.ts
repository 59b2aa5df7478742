import type { z } from "zod";

/**
 * One operation of the account API, described once: the route takes its permission, query, body, body
 * cap and success status from here (lib/auth/account-route.ts), the account OpenAPI document and the docs
 * are generated from it (./openapi.ts), and in tests every answer is checked against `response`.
 */

export type AccountMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type LeastRole = "viewer" | "member" | "admin" | "owner";

/**
 * What the operation does to which resource, e.g. `{ monitor: ["create"] }`. lib/auth/roles.ts defines
 * the resources and actions and grants them to roles; a name it does not define is a compile error
 * where the route uses the entry.
 */
export type OperationPermission = { readonly [resource: string]: readonly string[] };

/** The 413 of a body over its cap when the operation words it itself (the default names the byte cap). */
export interface TooLargeWords {
  readonly message: string;
  readonly hint: string;
}

export interface OperationSpec {
  readonly method: AccountMethod;
  /** OpenAPI path template: `{id}` for a path parameter. */
  readonly path: `/api/account/${string}`;
  readonly summary: string;
  readonly tag: string;
  readonly permission: OperationPermission;
  /** The least role allowed, as the docs say it: the role that `permission` is granted to first (a test checks). */
  readonly role: LeastRole;
  /**
   * Served to a member who has not turned on two-factor sign-in in an organization that requires it
   * (docs/spec/account-api.md "Two-factor sign-in": the caller's own membership and alert emails); every
   * other operation answers them 403 TWO_FACTOR_REQUIRED.
   */
  readonly twoFactorExempt?: true;
  /** The query string's strict schema; without one, the query string is not read. */
  readonly query?: z.ZodObject;
  /** The hint of a 400 about the query (default: lib/http/query.ts `QUERY_HINT`). */
  readonly queryHint?: string;
  /** The JSON body's schema; without one (and without `bodyType`), the body is not read. */
  readonly body?: z.ZodType;
  /**
   * The body's media type when it is not JSON: "text/csv" hands the handler the text (CSV imports),
   * "image" a PNG or JPEG upload's bytes and the type it claims (logos; any other type is 415).
   */
  readonly bodyType?: "text/csv" | "image";
  /**
   * "analyze-request": the body is the public analyzer's request (`body` documents it), read with the
   * analyzer's cap and messages (lib/api/analyze-request.ts); the handler gets the parsed request.
   */
  readonly bodyReader?: "analyze-request";
  /** The body's byte cap (413 past it) when not the default 16 KiB. Alone, without a body: read and dropped. */
  readonly bodyMaxBytes?: number;
  readonly bodyTooLarge?: TooLargeWords;
  /** The hint of a 400 INVALID_REQUEST that names none (default: the account routes' own). */
  readonly requestHint?: string;
  /** The success status: 204 has no body; a download answers its media types, anything else JSON. */
  readonly status: 200 | 201 | 204;
  readonly response?: z.ZodType;
  readonly download?: readonly string[];
  /** Still served, but another operation is the one to use (the summary names it). */
  readonly deprecated?: boolean;
}

export type AccountOperation = OperationSpec & { readonly operationId: string };

/** The account routes' body cap unless an entry says otherwise (bodies are a few fields). */
export const DEFAULT_BODY_BYTES = 16 * 1024;

/**
 * The catalog from entries keyed by their operation id (the key becomes `operationId`). The entries keep
 * their literal types, so a route's handler is typed from its entry's schemas.
 */
export function catalog<const T extends Record<string, OperationSpec>>(
  entries: T,
): { readonly [K in keyof T]: T[K] & { readonly operationId: K } } {
  return Object.fromEntries(
    Object.entries(entries).map(([operationId, entry]) => [operationId, { ...entry, operationId }]),
  ) as { readonly [K in keyof T]: T[K] & { readonly operationId: K } };
}
