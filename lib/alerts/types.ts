import type { AlertType } from "../db/schema/alerts";

export type { AlertType };

/** Every alert type of account-api.md, in the order the app lists them. */
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
] as const satisfies readonly AlertType[];

export type EmailMode = "immediate" | "daily" | "weekly" | "off";
export const EMAIL_MODES = ["immediate", "daily", "weekly", "off"] as const satisfies readonly EmailMode[];

/** A user's email preferences in one organization. */
export interface NotificationPreferences {
  email: EmailMode;
  types: AlertType[];
  digestHourUtc: number;
}

/** account-api.md: default immediate, every type. Digests (once chosen) go out at 08:00 UTC unless set. */
export const DEFAULT_PREFERENCES: NotificationPreferences = { email: "immediate", types: [...ALERT_TYPES], digestHourUtc: 8 };
