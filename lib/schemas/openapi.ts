import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ErrorSchema } from "../api/schemas";
import { IMAGE_BODY_TYPES } from "../http/read-body";
import { ACCOUNT_OPERATIONS, type AccountOperation } from "./operations";

/**
 * The account API's OpenAPI 3.1 document, generated from its operation catalog and schemas (never a
 * second, hand-written copy). Served only to signed-in users (GET /api/account/openapi.json) and never
 * linked from the public description: docs/spec/account-api.md keeps the signed-in product out of it.
 */

/**
 * Every account route may answer these (docs/spec/account-api.md's check order), besides its own
 * 400/404/409/413/429.
 */
const COMMON_ERRORS: Record<number, string> = {
  400: "INVALID_REQUEST (the message names the field), INVALID_URL, and the analyzer's errors where a page is rendered.",
  401: "UNAUTHORIZED: no valid session, or an Authorization header (account routes use the session cookie).",
  403: "INVALID_ORIGIN (a cross-site mutation), TWO_FACTOR_REQUIRED (the organization requires two-factor sign-in and the caller has not turned it on) or FORBIDDEN (the role is too low).",
  404: "NOT_FOUND: no such id in the active organization (another organization's ids are unknown here).",
};

/** The 403 of the few operations served without two-factor sign-in (`twoFactorExempt`): never TWO_FACTOR_REQUIRED. */
const EXEMPT_403 = "INVALID_ORIGIN (a cross-site mutation) or FORBIDDEN (the role is too low).";
const ROLE_WORDS = {
  viewer: "any member (viewer+)",
  member: "members and up",
  admin: "admins and owners",
  owner: "owners",
} as const;

/** The path parameters of a template, `{id}` and the like, each an opaque string. */
function pathParams(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name ?? "");
  return names.length === 0 ? null : z.strictObject(Object.fromEntries(names.map((name) => [name, z.string()])));
}

/** A file's bytes in a request or an answer. */
const BINARY = z.string().meta({ format: "binary" });

/** What an image upload may answer besides the common errors. */
const IMAGE_UPLOAD_ERRORS: Record<number, string> = {
  413: "PAYLOAD_TOO_LARGE: the body is over the operation's byte cap (refused before it is read past the cap).",
  415: "UNSUPPORTED_MEDIA_TYPE: a Content-Type other than image/png or image/jpeg (SVG, GIF and WebP included).",
};

/** The media types of a body that is not JSON, each with its schema. */
function rawBodyContent(bodyType: NonNullable<AccountOperation["bodyType"]>) {
  const types = bodyType === "image" ? IMAGE_BODY_TYPES : [bodyType];
  return Object.fromEntries(types.map((type) => [type, { schema: bodyType === "image" ? BINARY : z.string() }]));
}

function register(registry: OpenAPIRegistry, operation: AccountOperation): void {
  const params = pathParams(operation.path);
  const success =
    operation.status === 204
      ? { description: "Done; no body." }
      : operation.download
        ? {
            description: `${operation.summary} (Content-Disposition: attachment)`,
            content: Object.fromEntries(operation.download.map((type) => [type, { schema: z.string() }])),
          }
        : {
            description: operation.summary,
            content: { "application/json": { schema: operation.response ?? z.unknown() } },
          };
  registry.registerPath({
    method: operation.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete",
    path: operation.path,
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.twoFactorExempt
      ? `Who: ${ROLE_WORDS[operation.role]}, also without two-factor sign-in where the organization requires it.`
      : `Who: ${ROLE_WORDS[operation.role]}.`,
    tags: [operation.tag],
    ...(operation.deprecated ? { deprecated: true } : {}),
    security: [{ session: [] }],
    request: {
      ...(params ? { params } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(operation.body
        ? { body: { required: true, content: { "application/json": { schema: operation.body } } } }
        : {}),
      ...(operation.bodyType ? { body: { required: true, content: rawBodyContent(operation.bodyType) } } : {}),
    },
    responses: {
      [operation.status]: success,
      ...Object.fromEntries(
        Object.entries({ ...COMMON_ERRORS, ...(operation.bodyType === "image" ? IMAGE_UPLOAD_ERRORS : {}) }).map(
          ([status, description]) => [
            status,
            {
              description: operation.twoFactorExempt && status === "403" ? EXEMPT_403 : description,
              content: { "application/json": { schema: ErrorSchema } },
            },
          ],
        ),
      ),
    },
  });
}

/** The document for the given origin (its `servers`). */
export function buildAccountOpenApiDocument(origin: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "better-auth.session_token",
    description: "The web app's session cookie (sign in at /sign-in); there are no API keys.",
  });
  for (const operation of ACCOUNT_OPERATIONS) register(registry, operation);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "LinkLens account API",
      version: "1.0.0",
      description: `The signed-in product: teams, saved audits, domain groups, monitored pages and tracked links, alerts. Sign-in and teams' own endpoints are Better Auth's, under ${origin}/api/auth (docs/account-api.md). Every error is the public Error body.`,
    },
    servers: [{ url: origin }],
  });
}
