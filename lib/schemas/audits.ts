import { z } from "zod";
import { LinkSchema, StatsSchema } from "../api/schemas";
import { isoTime, listPaging } from "./common";
import { PageSignalsSchema, SignedInLinkSchema } from "./verdict";

/**
 * Saved audits (docs/spec/account-api.md "Saved audits"), requests and answers. Kept apart from lib/api/schemas.ts,
 * which feeds the public OpenAPI document: none of this may appear there. The services build these
 * objects, the account OpenAPI document describes them, the app's pages and the tests read them.
 */

/** GET /api/account/audits: the list's own filter (the final or the requested URL), with the paging. */
export const listAuditsFilters = { url: z.string().min(1).max(4096).optional() };
export const listAuditsQuerySchema = z.strictObject({ ...listPaging, ...listAuditsFilters });
/** GET /api/account/audits/{id}. */
export const getAuditQuerySchema = z.strictObject({
  include: z.literal("snapshot", { error: 'the only value is "snapshot"' }).optional(),
});
/** GET /api/account/audits/{id}/compare. */
export const compareQuerySchema = z.strictObject({
  with: z.string({ error: "name the earlier audit to compare with (?with={id})" }).min(1).max(200),
});
/** GET /api/account/audits/{id}/export. */
export const auditExportQuerySchema = z.strictObject({
  format: z.enum(["csv", "json"], { error: 'use "csv" or "json"' }),
});
/** POST /api/account/audits/{id}/track: the link at this position becomes a tracked link. */
export const trackSchema = z.strictObject({ position: z.number().int().min(1) });

export const AuditModeSchema = z.enum(["url", "paste"]);

/** One saved audit as the list shows it. */
export const AuditSummarySchema = z.strictObject({
  id: z.string(),
  createdAt: isoTime,
  mode: AuditModeSchema,
  url: z.string(),
  domain: z.string(),
  title: z.string().nullable(),
  stats: StatsSchema,
});

/** One saved audit: the public Link and stats (group rules applied) and who ran it. */
export const AuditSchema = z.strictObject({
  id: z.string(),
  createdAt: isoTime,
  /** `id` is null only if the user's account was deleted since. */
  createdBy: z.strictObject({ id: z.string().nullable(), email: z.string() }),
  mode: AuditModeSchema,
  requestedUrl: z.string(),
  url: z.string(),
  domain: z.string(),
  title: z.string().nullable(),
  stats: StatsSchema,
  /** What the page said about itself (placement-verdict.md "Page signals"); null for audits saved before page signals existed. */
  page: PageSignalsSchema.nullable(),
  /** The public Link fields of each link, then its `signals`. */
  links: z.array(SignedInLinkSchema),
  /** Only with `?include=snapshot`. */
  sanitizedHtml: z.string().optional(),
});

export const LinkChangeSchema = z.strictObject({
  href: z.string(),
  /** Link fields whose values differ; never `position` or `href`. */
  fields: z.array(z.string()),
  before: LinkSchema,
  after: LinkSchema,
});

export const AuditComparisonSchema = z.strictObject({
  added: z.array(LinkSchema),
  removed: z.array(LinkSchema),
  changed: z.array(LinkChangeSchema),
});

export type AuditSummary = z.infer<typeof AuditSummarySchema>;
export type Audit = z.infer<typeof AuditSchema>;
export type LinkChange = z.infer<typeof LinkChangeSchema>;
export type AuditComparison = z.infer<typeof AuditComparisonSchema>;
