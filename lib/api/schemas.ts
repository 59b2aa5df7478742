import { z } from "zod";
import { ERROR_CODES, ERRORS } from "../errors";
import { MAX_URL_LENGTH } from "../limits";
import type { AnalysisResult, AnalyzedLink, LinkStats } from "../analyzer";

/** The codes the public operations answer (the error table's public rows): /docs, llms.txt, OpenAPI. */
export const PUBLIC_ERROR_CODES = ERROR_CODES.filter((code) => ERRORS[code].public);

/**
 * The zod schemas of every resource in public-api.md §2, field for field, strict (no extra fields).
 * They feed request validation, TypeScript types, the OpenAPI document, /docs and the landing page.
 * `.meta({ id })` names a schema as an OpenAPI component.
 */

export const ErrorSchema = z
  .strictObject({
    success: z.literal(false),
    error: z.string().meta({ description: "Human-readable message." }),
    // A string, as public-api.md types it, not an enum: the codes of the public operations are listed in
    // the description and on /docs, and the signed-in product's codes (docs/spec/account-api.md: Better Auth's own
    // among them) use the same body without being part of the public description.
    errorCode: z
      .string()
      .regex(/^[A-Z0-9_]{1,80}$/)
      .meta({
        description: `Stable machine code; see the Errors section of /docs. The public operations answer ${PUBLIC_ERROR_CODES.join(", ")}.`,
      }),
    hint: z.string().meta({ description: "What to do next." }),
    docs: z.url().meta({ description: "URL of this error code's row in the human API docs (/docs#error-CODE)." }),
  })
  .meta({ id: "Error", description: "Every error body has exactly these five fields." });

export const HealthSchema = z
  .strictObject({
    status: z.literal("ok"),
    service: z.literal("linklens"),
  })
  .meta({ id: "Health" });

export const OperationSchema = z
  .strictObject({
    method: z.string(),
    path: z.string(),
    operationId: z.string(),
    description: z.string(),
  })
  .meta({ id: "Operation" });

export const ApiIndexSchema = z
  .strictObject({
    name: z.string(),
    version: z.string(),
    description: z.string(),
    docs: z.url(),
    openapi: z.url().meta({ description: "Location of the OpenAPI 3.1 document." }),
    llmsTxt: z.url().meta({ description: "Location of the plain-text agent guide." }),
    operations: z.array(OperationSchema),
  })
  .meta({ id: "ApiIndex" });

export const ProductSchema = z
  .strictObject({
    name: z.string(),
    url: z.url(),
    description: z.string(),
    whenToUse: z.array(z.string()),
    whenNotToUse: z.array(z.string()),
    howToCall: z.record(z.string(), z.string()).meta({ description: "Short label → call description or URL." }),
    contact: z.string(),
  })
  .meta({ id: "Product" });

export const DEFAULT_PASTE_DOMAIN = "example.com";

export const UrlModeRequestSchema = z
  .strictObject({
    url: z.string().meta({
      description: `Public http(s) URL to fetch and render (port 80/443, no credentials, at most ${MAX_URL_LENGTH.toLocaleString("en-US")} characters).`,
      format: "uri",
      example: "https://example.com/",
    }),
  })
  .meta({ id: "DemoAnalyzeUrlRequest", title: "URL mode" });

export const PasteModeRequestSchema = z
  .strictObject({
    html: z.string().meta({
      description: "Raw HTML to classify; never fetched from the network.",
      example: '<a href="https://example.org/" rel="nofollow">Example</a>',
    }),
    domain: z
      .string()
      .optional()
      .meta({
        description: `Hostname used as the classification origin; defaults to ${DEFAULT_PASTE_DOMAIN}.`,
        example: "example.com",
      }),
  })
  .meta({ id: "DemoAnalyzePasteRequest", title: "Paste mode" });

export const DemoAnalyzeRequestSchema = z
  .union([UrlModeRequestSchema, PasteModeRequestSchema])
  .meta({ id: "DemoAnalyzeRequest", description: "Exactly one of the two shapes, no extra fields." });

export type UrlModeRequest = z.infer<typeof UrlModeRequestSchema>;
export type PasteModeRequest = z.infer<typeof PasteModeRequestSchema>;
export type DemoAnalyzeRequest = z.infer<typeof DemoAnalyzeRequestSchema>;

export const LinkSchema = z
  .strictObject({
    href: z
      .string()
      .meta({ description: "Absolute URL (WHATWG serialization), or the raw attribute when it cannot be resolved." }),
    position: z.int().nullable().meta({ description: "1-based document-order index of the link." }),
    linkType: z.enum(["internal", "external", "ignored"]),
    anchorText: z.string().nullable(),
    isNofollow: z.boolean().nullable(),
    isSponsored: z.boolean().nullable(),
    isUgc: z.boolean().nullable(),
    isImage: z.boolean().nullable().optional(),
    httpStatus: z.int().nullable().meta({
      description:
        "URL mode: final status after up to 5 redirects, 0 for no HTTP response; null when not checked or in paste mode.",
    }),
    matchedGroupName: z
      .string()
      .nullable()
      .meta({ description: "Always null on the public surface (domain groups belong to accounts)." }),
  })
  .meta({ id: "Link" });

export const StatsSchema = z
  .strictObject({
    total: z.int(),
    internal: z.int(),
    external: z.int(),
    ignored: z.int(),
    follow: z.int(),
    nofollow: z.int(),
    sponsored: z.int(),
    ugc: z.int(),
    broken: z.int(),
  })
  .meta({ id: "Stats" });

export const DemoAnalyzeSuccessSchema = z
  .strictObject({
    success: z.literal(true),
    sanitizedHtml: z.string().meta({
      description: "Defanged snapshot: scripts and event handlers stripped; links carry data-linklens-position.",
    }),
    links: z.array(LinkSchema),
    stats: StatsSchema,
    domain: z.string(),
    url: z.url(),
  })
  .meta({ id: "DemoAnalyzeSuccess" });

export type ApiIndex = z.infer<typeof ApiIndexSchema>;
export type Product = z.infer<typeof ProductSchema>;
export type Health = z.infer<typeof HealthSchema>;
export type DemoAnalyzeSuccess = z.infer<typeof DemoAnalyzeSuccessSchema>;
export type Link = z.infer<typeof LinkSchema>;
export type Stats = z.infer<typeof StatsSchema>;
export type ErrorResponse = z.infer<typeof ErrorSchema>;

// The analyzer's result types (lib/analyzer/types.ts) cannot import these schemas (the analyzer sits
// below lib/api), so they are tied here at compile time: an analyzer result is always a valid
// DemoAnalyzeSuccess, and both sides have exactly the same fields. Adding, renaming or retyping a field
// on one side only fails `npm run typecheck`.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type _AnalyzerResultMatchesSchemas = [
  Holds<AnalysisResult extends DemoAnalyzeSuccess ? true : false>,
  Holds<AnalyzedLink extends Link ? true : false>,
  Holds<Same<keyof AnalysisResult, keyof DemoAnalyzeSuccess>>,
  Holds<Same<keyof AnalyzedLink, keyof Link>>,
  Holds<Same<LinkStats, Stats>>,
];
