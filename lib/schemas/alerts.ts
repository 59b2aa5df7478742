import { z } from "zod";
import { isoTime, listPaging } from "./common";

/** Alerts and notification preferences (docs/spec/account-api.md "Alerts and email"): requests and answers. */

/** Every alert type, in the order the app lists them. */
export const ALERT_TYPES = [
  "link_missing",
  "link_restored",
  "link_broken",
  "link_fixed",
  "rel_changed",
  "anchor_changed",
  "page_noindex",
  "page_unreachable",
  "link_expiring",
  "verdict_changed",
  "crawler_access_changed",
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const EMAIL_MODES = ["immediate", "daily", "weekly", "off"] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

const typeList = z
  .string()
  .max(400)
  .transform((value, ctx) => {
    const types = value
      .split(",")
      .map((type) => type.trim())
      .filter(Boolean);
    for (const type of types) {
      if (!(ALERT_TYPES as readonly string[]).includes(type))
        ctx.addIssue({ code: "custom", message: `unknown alert type "${type}" (one of ${ALERT_TYPES.join(", ")})` });
    }
    return types as AlertType[];
  });

/** GET /api/account/alerts. */
export const alertsQuerySchema = z.strictObject({
  ...listPaging,
  /** One type or several, comma-separated. */
  type: typeList.optional(),
  monitorId: z.string().min(1).max(200).optional(),
  trackedLinkId: z.string().min(1).max(200).optional(),
  /** ISO 8601: only events at or after this time. */
  since: isoTime.optional(),
});
export type AlertsQuery = z.infer<typeof alertsQuerySchema>;

/** AlertEvent, exactly `{ id, type, monitorId, trackedLinkId, before, after, createdAt }`. */
export const AlertEventSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  monitorId: z.string(),
  trackedLinkId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: isoTime,
});
export type AlertEvent = z.infer<typeof AlertEventSchema>;

/** An alert as the app shows it: the event with the words of its email (headline, before → after). */
export const AlertFeedItemSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  createdAt: isoTime,
  monitorId: z.string(),
  monitorUrl: z.string(),
  headline: z.string(),
  summary: z.string(),
  changes: z.array(z.strictObject({ label: z.string(), before: z.string(), after: z.string() })),
});
export type AlertFeedItem = z.infer<typeof AlertFeedItemSchema>;

/** GET|PUT /api/account/notifications: a user's alert emails in one organization. */
export const NotificationPreferencesSchema = z.strictObject({
  email: z.enum(EMAIL_MODES),
  types: z.array(z.enum(ALERT_TYPES)),
  digestHourUtc: z.number().int().min(0).max(23),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/** A PUT may send any of the three fields; the others keep their value (a form that changes the hour must not reset the types). */
export const preferencesUpdateSchema = z.strictObject({
  email: z.enum(EMAIL_MODES).optional(),
  types: z
    .array(z.enum(ALERT_TYPES))
    .max(ALERT_TYPES.length * 2)
    .transform((types) => ALERT_TYPES.filter((type) => types.includes(type)))
    .optional(),
  digestHourUtc: z.number().int().min(0).max(23).optional(),
});
export type PreferencesUpdate = z.infer<typeof preferencesUpdateSchema>;

/** docs/spec/account-api.md: default immediate, every type. Digests (once chosen) go out at 08:00 UTC unless set. */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  email: "immediate",
  types: [...ALERT_TYPES],
  digestHourUtc: 8,
};
