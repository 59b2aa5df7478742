import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { bytea } from "./audits";

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
    /**
     * The recipient's user id for organization emails to members (alerts): the sender drops the email
     * if that user is no longer a member of `organizationId` when it goes out.
     */
    recipientUserId: text("recipient_user_id"),
    /** Extra message headers (List-Unsubscribe, List-Unsubscribe-Post for one-click mute). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** A file sent with the email (a scheduled report's PDF); several emails may share one. */
    attachmentId: text("attachment_id").references(() => emailAttachment.id, { onDelete: "set null" }),
    /**
     * What the email reports on, when it must not go out once that ends (`share:<id>` for a scheduled
     * report): revoking the share or unsubscribing drops the emails still waiting (lib/mail/outbox.ts).
     */
    about: text("about"),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    /**
     * `dropped`: not sent because the recipient left the organization before it went out, or what it
     * reports on ended (`about`).
     */
    status: text("status").$type<"pending" | "sending" | "sent" | "failed" | "dropped">().notNull().default("pending"),
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
    index("email_outbox_about_idx").on(table.about),
  ],
);

/**
 * Files sent with outbox emails. Written with the emails that carry them; deleted once none of them is
 * still waiting to go out (lib/mail/attachments.ts).
 */
export const emailAttachment = pgTable("email_attachment", {
  id: text("id").primaryKey(),
  filename: text("filename").notNull(),
  contentType: text("content_type").notNull(),
  content: bytea("content").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
