import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { organizationRef, time } from "./columns";
import { user } from "./auth";
import { monitor, trackedLink } from "./monitors";

/**
 * Alerts (docs/spec/account-api.md "Alerts and email"): events written in the same transaction as the state change
 * that causes them, each user's email preferences, and the deliveries that make "an event is emailed at
 * most once per recipient" a primary key rather than a hope.
 */

export type { AlertType } from "../../schemas/alerts";
import type { AlertType } from "../../schemas/alerts";

export const alertEvent = pgTable(
  "alert_event",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    type: text("type").$type<AlertType>().notNull(),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    trackedLinkId: text("tracked_link_id").references(() => trackedLink.id, { onDelete: "cascade" }),
    /** The check that saw the change (null for expiry reminders). */
    checkId: text("check_id"),
    before: jsonb("before").$type<Record<string, unknown> | null>(),
    after: jsonb("after").$type<Record<string, unknown> | null>(),
    /** Reminders are computed by a daily job; this key makes each one exist once (e.g. "2026-12-01:7"). */
    dedupeKey: text("dedupe_key"),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    index("alert_event_org_created_idx").on(table.organizationId, table.createdAt, table.id),
    index("alert_event_monitor_idx").on(table.monitorId),
    uniqueIndex("alert_event_dedupe_uq").on(table.trackedLinkId, table.type, table.dedupeKey),
  ],
);

/** A user's email preferences in one organization (defaults apply when there is no row). */
export const notificationPreference = pgTable(
  "notification_preference",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    organizationId: organizationRef(),
    email: text("email").$type<"immediate" | "daily" | "weekly" | "off">().notNull(),
    types: text("types").array().$type<AlertType[]>().notNull(),
    digestHourUtc: integer("digest_hour_utc").notNull(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.organizationId] })],
);

/** An event emailed to a user: at most one row per (event, user), so at most one email. */
export const alertDelivery = pgTable(
  "alert_delivery",
  {
    eventId: text("event_id")
      .notNull()
      .references(() => alertEvent.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The outbox row that carries it (immediate email or digest). */
    outboxId: text("outbox_id").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.userId] })],
);

/** A digest period a user was sent (or had nothing for): "2026-11-23" daily, "2026-W48" weekly. */
export const digestRun = pgTable(
  "digest_run",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    organizationId: organizationRef(),
    period: text("period").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.organizationId, table.period] })],
);

/** "Mute this monitor" from an email: that user gets no more alert emails about it. */
export const monitorMute = pgTable(
  "monitor_mute",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.monitorId] }),
    index("monitor_mute_monitor_idx").on(table.monitorId),
  ],
);
