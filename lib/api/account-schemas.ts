import { z } from "zod";
import { LinkSchema, StatsSchema } from "./schemas";

/**
 * Response shapes of the signed-in audits and domain groups (account-api.md "Domain groups", "Saved
 * audits"). Kept apart from schemas.ts, which feeds the public OpenAPI document: none of this may appear
 * there. The services build these objects; the tests and the app's pages read them with these schemas.
 */

const isoTime = z.iso.datetime({ offset: true });

export const DomainGroupSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** Hostnames, lowercased and in punycode, duplicates removed, in the order given. */
  domains: z.array(z.string()),
  createdAt: isoTime,
  updatedAt: isoTime,
});

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
  links: z.array(LinkSchema),
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

export type DomainGroup = z.infer<typeof DomainGroupSchema>;
export type AuditSummary = z.infer<typeof AuditSummarySchema>;
export type Audit = z.infer<typeof AuditSchema>;
export type LinkChange = z.infer<typeof LinkChangeSchema>;
export type AuditComparison = z.infer<typeof AuditComparisonSchema>;
