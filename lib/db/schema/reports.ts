import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { RecipientStatus, ScheduleCadence } from "../../schemas/share-schedules";
import { organizationRef, time } from "./columns";
import { share } from "./shares";

/**
 * Scheduled reports (reports-and-channels.md "Scheduled reports"): at most one schedule per share, and
 * its recipients, who confirm before they get anything. Removing the schedule (or the share) removes them.
 */
export const reportSchedule = pgTable(
  "report_schedule",
  {
    shareId: text("share_id")
      .primaryKey()
      .references(() => share.id, { onDelete: "cascade" }),
    organizationId: organizationRef(),
    cadence: text("cadence").$type<ScheduleCadence>().notNull(),
    /** 0 (Sunday) to 6, weekly reports only. */
    weekday: integer("weekday"),
    /** 1 to 28, monthly reports only. */
    dayOfMonth: integer("day_of_month"),
    hourUtc: integer("hour_utc").notNull(),
    /** When the next report is due; a send moves it to the first time of the schedule after the send. */
    nextSendAt: time("next_send_at").notNull(),
    /** When the last report was made: the next one's period starts here. */
    lastSentAt: time("last_sent_at"),
    /**
     * An instance making the due report holds it until then (the print takes seconds); another instance
     * takes it over only after that, so a crashed maker's report is still sent, once.
     */
    claimedUntil: time("claimed_until"),
    createdAt: time("created_at").notNull().defaultNow(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (table) => [index("report_schedule_due_idx").on(table.nextSendAt)],
);

export const reportRecipient = pgTable(
  "report_recipient",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    shareId: text("share_id")
      .notNull()
      .references(() => reportSchedule.shareId, { onDelete: "cascade" }),
    /** Lowercased. */
    email: text("email").notNull(),
    status: text("status").$type<RecipientStatus>().notNull().default("pending"),
    /** SHA-256 of the confirmation link's token (random, single use); kept after use so the link can say so. */
    confirmTokenHash: text("confirm_token_hash").notNull(),
    confirmExpiresAt: time("confirm_expires_at").notNull(),
    confirmedAt: time("confirmed_at"),
    unsubscribedAt: time("unsubscribed_at"),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("report_recipient_share_email_uq").on(table.shareId, table.email),
    uniqueIndex("report_recipient_confirm_token_uq").on(table.confirmTokenHash),
  ],
);
