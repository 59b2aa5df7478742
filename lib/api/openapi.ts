import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { API_VERSION, OPERATIONS, SERVICE_DESCRIPTION, SERVICE_NAME, type Operation } from "./catalog";
import { ERRORS, type ErrorCode } from "../errors";
import { DemoAnalyzeRequestSchema, ErrorSchema } from "./schemas";

/**
 * The OpenAPI 3.1 document, generated from the operation catalog and the zod schemas: never a
 * hand-written second copy.
 */

const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": {
    description: "Requests allowed in the window (or the monthly URL budget on a budget 429).",
    schema: { type: "integer" as const },
  },
  "X-RateLimit-Remaining": { description: "Requests left in the window.", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": {
    description: "Unix time in whole seconds at which the limit next has room.",
    schema: { type: "integer" as const },
  },
};

/** One response description per status, from the rows of the error table this operation can answer. */
function describeStatus(codes: readonly ErrorCode[], status: number): string {
  return codes
    .filter((code) => ERRORS[code].status === status)
    .map((code) => `${code}: ${ERRORS[code].when}`)
    .join(" ");
}

function errorResponses(operation: Operation) {
  const statuses = [...new Set(operation.errorCodes.map((code) => ERRORS[code].status))].sort();
  const isAnalyzer = operation.operationId === "analyzePublicDemo";
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: describeStatus(operation.errorCodes, status),
        headers: {
          ...(isAnalyzer ? RATE_LIMIT_HEADERS : {}),
          ...(status === 429
            ? { "Retry-After": { description: "Seconds to wait (at least 1).", schema: { type: "integer" as const } } }
            : {}),
          ...(status === 405
            ? { Allow: { description: "The allowed methods.", schema: { type: "string" as const } } }
            : {}),
        },
        content: { "application/json": { schema: ErrorSchema } },
      },
    ]),
  );
}

function register(registry: OpenAPIRegistry, operation: Operation): void {
  const isAnalyzer = operation.operationId === "analyzePublicDemo";
  const successContent = operation.successSchema
    ? { "application/json": { schema: operation.successSchema } }
    : {
        "application/json": {
          schema: z.record(z.string(), z.unknown()).meta({ description: "The OpenAPI 3.1 document." }),
        },
      };
  registry.registerPath({
    method: operation.method === "GET" ? "get" : "post",
    path: operation.path,
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: [isAnalyzer ? "Analyzer" : "Discovery"],
    ...(isAnalyzer
      ? {
          request: {
            body: {
              required: true,
              content: {
                "application/json": {
                  schema: DemoAnalyzeRequestSchema,
                  examples: {
                    urlMode: { summary: "URL mode: render a public page", value: { url: "https://example.com/" } },
                    pasteMode: {
                      summary: "Paste mode: classify HTML you already have",
                      value: {
                        html: '<a href="https://example.org/" rel="sponsored">Partner</a> <a href="/about">About</a>',
                        domain: "example.com",
                      },
                    },
                  },
                },
              },
            },
          },
        }
      : {}),
    responses: {
      200: {
        description: operation.summary,
        headers: isAnalyzer ? RATE_LIMIT_HEADERS : {},
        content: successContent,
      },
      ...errorResponses(operation),
    },
  });
}

/** Builds the document for the given public origin (used for `servers`). */
export function buildOpenApiDocument(origin: string) {
  const registry = new OpenAPIRegistry();
  for (const operation of OPERATIONS) register(registry, operation);
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: "3.1.0",
    info: {
      title: `${SERVICE_NAME} public API`,
      version: API_VERSION,
      description: `${SERVICE_DESCRIPTION} Human docs: ${origin}/docs. Agent guide: ${origin}/llms.txt.`,
      contact: { name: "LinkLens support", email: "support@linklens.dev", url: `${origin}/docs` },
    },
    servers: [{ url: origin }],
    tags: [
      { name: "Discovery", description: "What the API offers and whether it is up." },
      { name: "Analyzer", description: "The anonymous page analyzer." },
    ],
  });
}
