import { z } from "zod";
import { StatsSchema } from "../api/schemas";
import { isoTime } from "./common";
import { LinkStateSchema, MATCH_MODES } from "./monitors";
import { SHARE_SCOPES } from "./shares";
import { UptimeSchema } from "./stats";
import { SignedInLinkSchema, VerdictSchema } from "./verdict";

/**
 * What a client report (/r/{token}) shows, and all it may show: strict shapes, so a private field
 * (notes, costs, emails, ids) cannot slip into the page or its CSV without failing the report's own
 * validation (lib/shares/report.ts parses every report it builds with these).
 */

export const SHARE_PAGE_SIZE = 100;

/** One tracked link in a tag or monitor report. */
export const ShareLinkRowSchema = z.strictObject({
  pageUrl: z.string(),
  target: z.string(),
  match: z.enum(MATCH_MODES),
  state: LinkStateSchema,
  /** Null until a check found the link (placement-verdict.md). */
  verdict: VerdictSchema.nullable(),
  /** The page's last check. */
  lastCheckedAt: isoTime.nullable(),
  uptime: UptimeSchema,
});

const paging = { page: z.number().int().min(1), pages: z.number().int().min(1), total: z.number().int().min(0) };

export const ShareReportSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("links"),
    title: z.string(),
    organizationName: z.string(),
    scope: z.enum(SHARE_SCOPES),
    /** The tag, or the monitored page's URL. */
    subject: z.string(),
    generatedAt: isoTime,
    expiresAt: isoTime.nullable(),
    /** Tracked links in scope by state (all pages of the report). */
    states: z.record(LinkStateSchema, z.number().int()),
    links: z.array(ShareLinkRowSchema),
    ...paging,
  }),
  z.strictObject({
    kind: z.literal("audit"),
    title: z.string(),
    organizationName: z.string(),
    scope: z.literal("audit"),
    subject: z.string(),
    generatedAt: isoTime,
    expiresAt: isoTime.nullable(),
    audit: z.strictObject({
      url: z.string(),
      pageTitle: z.string().nullable(),
      auditedAt: isoTime,
      stats: StatsSchema,
    }),
    /** The saved audit's links with their signals, as its result view shows them. */
    links: z.array(SignedInLinkSchema),
    ...paging,
  }),
]);

export type ShareLinkRow = z.infer<typeof ShareLinkRowSchema>;
export type ShareReport = z.infer<typeof ShareReportSchema>;
export type LinksReport = Extract<ShareReport, { kind: "links" }>;
export type AuditReport = Extract<ShareReport, { kind: "audit" }>;
