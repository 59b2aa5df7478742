import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { ShareScope } from "../../schemas/shares";
import { audit } from "./audits";
import { organizationRef, time } from "./columns";
import { monitor } from "./monitors";

/**
 * Client reports (evidence-and-reports.md "Client reports"): a read-only page at /r/{token} for people
 * without an account. Only the token's SHA-256 is kept (the token itself is shown once, in the answer
 * that creates it). A share of a monitor or an audit goes with it (its page would answer 404 anyway).
 */
export const share = pgTable(
  "share",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    title: text("title").notNull(),
    scope: text("scope").$type<ShareScope>().notNull(),
    tag: text("tag"),
    monitorId: text("monitor_id").references(() => monitor.id, { onDelete: "cascade" }),
    auditId: text("audit_id").references(() => audit.id, { onDelete: "cascade" }),
    /** Lowercase hex SHA-256 of the token. */
    tokenHash: text("token_hash").notNull(),
    /**
     * SHA-256 of the second token that opens the same report: the one scheduled report emails carry,
     * derived from the share's id under the auth secret (lib/reports/report-link.ts). Null until the
     * share first gets a schedule; it lives as long as the share.
     */
    reportLinkHash: text("report_link_hash"),
    /** Kept as id + email so the list still reads after the user leaves (like audits). */
    createdById: text("created_by_id"),
    createdByEmail: text("created_by_email").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
    expiresAt: time("expires_at"),
    revokedAt: time("revoked_at"),
  },
  (table) => [
    uniqueIndex("share_token_hash_uq").on(table.tokenHash),
    uniqueIndex("share_report_link_hash_uq").on(table.reportLinkHash),
    index("share_org_created_idx").on(table.organizationId, table.createdAt, table.id),
  ],
);
