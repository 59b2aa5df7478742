import type { z } from "zod";
import type { ErrorCode } from "../errors";
import { MAX_JSON_DEPTH } from "../limits";
import { ApiIndexSchema, DemoAnalyzeSuccessSchema, HealthSchema, ProductSchema } from "./schemas";

/**
 * The one operation catalog. It feeds GET /api/v1, the OpenAPI `paths`, /docs and /llms.txt, so a new
 * operation is added here once and shows up everywhere.
 */

export const API_VERSION = "1.0.0";
export const SERVICE_NAME = "LinkLens";
export const SERVICE_SLUG = "linklens";
export const SERVICE_DESCRIPTION =
  "LinkLens renders a public web page in headless Chromium (after its JavaScript runs), captures every link and classifies it: internal, external or ignored; nofollow, sponsored, ugc; anchor text; image links; position; and, in URL mode, each link's HTTP status.";
export const CONTACT = "support@linklens.dev";

export type HttpMethod = "GET" | "POST";

export interface Operation {
  method: HttpMethod;
  path: string;
  operationId: string;
  /** One line, shown in the ApiIndex and the docs. */
  description: string;
  summary: string;
  /** The body of a 200 answer; null when it is not JSON described by a schema (the OpenAPI document). */
  successSchema: z.ZodType | null;
  /** Error codes this operation can answer besides NOT_FOUND. */
  errorCodes: ErrorCode[];
  /** A shell example with `{base}` standing for the service origin. */
  curl: string;
  cors: boolean;
}

export const OPERATIONS: readonly Operation[] = [
  {
    method: "GET",
    path: "/api/v1",
    operationId: "listPublicApi",
    summary: "List the public operations",
    description:
      "Operation catalog with the docs, OpenAPI and llms.txt locations. First call when only the origin is known.",
    successSchema: ApiIndexSchema,
    errorCodes: ["METHOD_NOT_ALLOWED"],
    curl: "curl {base}/api/v1",
    cors: true,
  },
  {
    method: "GET",
    path: "/api/v1/health",
    operationId: "getHealth",
    summary: "Liveness probe",
    description: "Liveness probe only; reads no customer data and spends no render credit.",
    successSchema: HealthSchema,
    errorCodes: ["METHOD_NOT_ALLOWED"],
    curl: "curl {base}/api/v1/health",
    cors: true,
  },
  {
    method: "GET",
    path: "/api/v1/product",
    operationId: "getProduct",
    summary: "Product facts",
    description: "What LinkLens does, when to use it and when not, how to call it, and the support contact.",
    successSchema: ProductSchema,
    errorCodes: ["METHOD_NOT_ALLOWED"],
    curl: "curl {base}/api/v1/product",
    cors: true,
  },
  {
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApiSpec",
    summary: "OpenAPI 3.1 document",
    description:
      "The OpenAPI 3.1 description of the public API, generated from the same schemas the server validates with.",
    successSchema: null,
    errorCodes: ["METHOD_NOT_ALLOWED"],
    curl: "curl {base}/openapi.json",
    cors: true,
  },
  {
    method: "POST",
    path: "/api/demo/analyze",
    operationId: "analyzePublicDemo",
    summary: "Analyze a public URL or pasted HTML",
    description:
      "Renders a public URL (URL mode) or classifies pasted HTML (paste mode) and returns every link with its classification, stats and a sanitized snapshot. Results are never saved.",
    successSchema: DemoAnalyzeSuccessSchema,
    errorCodes: [
      "INVALID_REQUEST",
      "INVALID_URL",
      "BLOCKED_URL",
      "BLOCKED_REDIRECT",
      "BOT_DETECTED",
      "METHOD_NOT_ALLOWED",
      "PAYLOAD_TOO_LARGE",
      "UNPROCESSABLE_PAGE",
      "RATE_LIMITED",
      "UPSTREAM_ERROR",
    ],
    curl: 'curl -X POST {base}/api/demo/analyze -H \'Content-Type: application/json\' -d \'{"html":"<a href=\\"https://example.org/\\" rel=\\"nofollow\\">Example</a>","domain":"example.com"}\'',
    cors: false,
  },
];

export const WHEN_TO_USE = [
  "Verify a known backlink placement: is my link on the page, is it followed, what is its anchor text?",
  "Run a page-level link audit of one rendered URL: internal vs external, nofollow/sponsored/ugc, broken links.",
  "Classify the links of HTML you already have (paste mode) without fetching anything.",
  "Monitor purchased or guest placements (signed-in accounts).",
];

export const WHEN_NOT_TO_USE = [
  "Web-wide backlink index or referring-domain discovery.",
  "Keyword research, rank tracking or sitewide crawling.",
  "Analyzing non-public pages you are not authorized to fetch.",
];

/** The five public limits as facts for /docs and /llms.txt. */
export function limitFacts(config: {
  RATE_LIMIT_PER_MINUTE: number;
  MAX_HTML_BYTES: number;
  DEMO_URL_MONTHLY_BUDGET: number;
}): string[] {
  return [
    `${config.RATE_LIMIT_PER_MINUTE} POST /api/demo/analyze requests per client IP per minute (sliding window); excess gets 429 RATE_LIMITED.`,
    `A monthly budget of ${config.DEMO_URL_MONTHLY_BUDGET} URL-mode renders for the whole service (calendar month, UTC); when spent, URL mode answers 429 and paste mode keeps working.`,
    `Paste mode accepts html up to ${config.MAX_HTML_BYTES.toLocaleString("en-US")} UTF-8 bytes; larger gets 413 PAYLOAD_TOO_LARGE.`,
    `A JSON body nested more than ${MAX_JSON_DEPTH} levels of arrays and objects deep gets 400 INVALID_REQUEST, before it is parsed.`,
    "Every analyzer answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix time in whole seconds when there is room again); a 429 also carries Retry-After (seconds).",
  ];
}
