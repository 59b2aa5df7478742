import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { organizationRef, time } from "./columns";

/**
 * Domain groups (docs/spec/account-api.md "Domain groups"): an organization's sister sites, classified as internal
 * to each other in signed-in audits and monitor checks.
 */
export const domainGroup = pgTable(
  "domain_group",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    name: text("name").notNull(),
    /** Hostnames as the organization listed them, lowercased and in punycode, in their order. */
    domains: text("domains").array().notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (table) => [
    // Names are unique per organization regardless of case ("Network" and "network" would confuse a badge reader).
    uniqueIndex("domain_group_org_name_uq").on(table.organizationId, sql`lower(${table.name})`),
    index("domain_group_org_created_idx").on(table.organizationId, table.createdAt, table.id),
  ],
);

/**
 * One row per site (registrable domain; the host itself for IPs and single labels) of a group. The
 * primary key is the rule "a site belongs to at most one group of an organization", enforced by the
 * database even when two instances save groups at once. Classification reads this table.
 */
export const domainGroupSite = pgTable(
  "domain_group_site",
  {
    organizationId: organizationRef(),
    site: text("site").notNull(),
    groupId: text("group_id")
      .notNull()
      .references(() => domainGroup.id, { onDelete: "cascade" }),
    /** Order of first mention in the group's domains (stable answers). */
    position: integer("position").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.site] }),
    index("domain_group_site_group_idx").on(table.groupId),
  ],
);
