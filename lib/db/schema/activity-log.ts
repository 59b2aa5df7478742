import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The activity log: who did what and when, per organization. Rows are never updated; `actorEmail` is
 * copied so the log still reads after the actor's account is deleted. `organizationId` has no foreign key
 * for the same reason (an organization's deletion is itself logged). The table keeps its first name,
 * audit_log: renaming it would take a migration, and break instances still on the old code during a
 * rolling deploy, for a word.
 */
export const activityLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    ipAddress: text("ip_address"),
    // Millisecond precision: the list cursor carries a JavaScript Date.
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index("audit_log_org_created_idx").on(table.organizationId, table.createdAt, table.id)],
);
