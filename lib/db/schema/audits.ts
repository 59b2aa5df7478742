import { boolean, customType, date, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { LinkStats } from "../../analyzer";
import type { PageSignals, Region } from "../../schemas/verdict";
import { organizationRef, time } from "./columns";

/** gzip-compressed bytes (snapshots and pasted inputs compress 5–10×). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** The public stats object (public-api.md §2.6), stored as written. */
export type StoredStats = LinkStats;

/**
 * Saved audits (docs/spec/account-api.md "Saved audits"): one analysis of a page, kept with its links as rows so
 * lists, filters, comparisons and exports are queries. The snapshot (and, in paste mode, the pasted HTML a
 * re-run needs) is stored gzip-compressed.
 */
export const audit = pgTable(
  "audit",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    /** The user who ran it; kept as id + email so the audit still reads after the user leaves. */
    createdById: text("created_by_id"),
    createdByEmail: text("created_by_email").notNull(),
    mode: text("mode").$type<"url" | "paste">().notNull(),
    /** URL mode: the URL as asked; paste mode: `https://{domain}/`. */
    requestedUrl: text("requested_url").notNull(),
    url: text("url").notNull(),
    domain: text("domain").notNull(),
    title: text("title"),
    stats: jsonb("stats").$type<StoredStats>().notNull(),
    /** Audit.page (placement-verdict.md); null for audits saved before page signals existed. */
    page: jsonb("page").$type<PageSignals>(),
    snapshotGzip: bytea("snapshot_gzip").notNull(),
    /** Paste mode only: the pasted HTML (re-run analyses it again). */
    inputHtmlGzip: bytea("input_html_gzip"),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    index("audit_org_created_idx").on(table.organizationId, table.createdAt, table.id),
    // ?url= matches the final URL or the one asked for: one index each, so both sides of the OR are lookups.
    index("audit_org_url_idx").on(table.organizationId, table.url),
    index("audit_org_requested_url_idx").on(table.organizationId, table.requestedUrl),
  ],
);

/** One row per captured link of an audit, the public Link fields (group rules applied). */
export const auditLink = pgTable(
  "audit_link",
  {
    auditId: text("audit_id")
      .notNull()
      .references(() => audit.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    href: text("href").notNull(),
    linkType: text("link_type").$type<"internal" | "external" | "ignored">().notNull(),
    anchorText: text("anchor_text"),
    isNofollow: boolean("is_nofollow").notNull(),
    isSponsored: boolean("is_sponsored").notNull(),
    isUgc: boolean("is_ugc").notNull(),
    isImage: boolean("is_image").notNull(),
    httpStatus: integer("http_status"),
    matchedGroupName: text("matched_group_name"),
    /** The link's signals (placement-verdict.md); null in rows saved before signals existed. */
    inRawHtml: boolean("in_raw_html"),
    hidden: boolean("hidden"),
    region: text("region").$type<Region>(),
    /** google-view.md §2: the link is in Googlebot's render; null when unavailable, paste mode, or older rows. */
    inGoogleView: boolean("in_google_view"),
  },
  (table) => [primaryKey({ columns: [table.auditId, table.position] })],
);

/** Audits an organization ran per UTC day (ORG_AUDITS_PER_DAY): one atomic counter row per day. */
export const organizationDailyUsage = pgTable(
  "organization_daily_usage",
  {
    organizationId: organizationRef(),
    day: date("day", { mode: "string" }).notNull(),
    audits: integer("audits").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.day] })],
);
