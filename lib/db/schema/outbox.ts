import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The transactional email outbox: a row per email, written with the change that causes it; the sender
 * claims due rows, delivers them and marks them. `status`: pending → sending (claimed, with a lease
 * until `leaseUntil`) → sent | failed (after the last attempt). A claim whose lease ran out (a crashed
 * sender) is claimed again.
 */
export const outbox = pgTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    /** The organization the email belongs to (invitations, alerts); null for account emails (magic link, reset). */
    organizationId: text("organization_id"),
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    status: text("status").$type<"pending" | "sending" | "sent" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    /** The Message-ID the SMTP server accepted; a retry after an unknown outcome reuses it. */
    messageId: text("message_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("email_outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("email_outbox_recipient_idx").on(table.recipient),
    index("email_outbox_org_idx").on(table.organizationId),
  ],
);
