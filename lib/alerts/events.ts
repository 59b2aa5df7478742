import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { alertEvent, type AlertType } from "../db/schema/alerts";
import { emailImmediately } from "./immediate";
import { processAlertLinks, type AlertLinks } from "./links";
import { queueWebhooks } from "./webhooks";

/**
 * Alert events (docs/spec/account-api.md "Alerts and email"). A check writes them with `recordAlertEvents` inside
 * the transaction that stores the state change causing them, so an event exists exactly when its change
 * does; emails to the organization's members and deliveries to its webhooks are queued from the same call.
 */

/** One event to record; `before` / `after` describe the change (see docs/account-api.md "Alerts"). */
export interface NewAlertEvent {
  type: AlertType;
  monitorId: string;
  trackedLinkId: string | null;
  checkId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Reminders only: makes the event exist once whatever the number of runs (e.g. "2026-12-01:7"). */
  dedupeKey?: string;
}

export type AlertEventRow = typeof alertEvent.$inferSelect;

/** A Drizzle database or an open transaction. */
export type DbOrTx = Pick<Db, "insert" | "select" | "update" | "delete" | "execute">;

/**
 * Writes the events of one organization (inside the caller's transaction), queues the immediate emails
 * they cause (lib/alerts/immediate.ts) and their webhook deliveries (lib/alerts/webhooks.ts), and answers
 * the rows written. An event whose dedupe key exists
 * already is skipped (two reminder runs write one reminder, and email it once). Call it once per check
 * with all of the check's events, so one check's changes on a page make one email.
 */
export async function recordAlertEvents(
  tx: DbOrTx,
  organizationId: string,
  events: readonly NewAlertEvent[],
  now: Date,
  links: AlertLinks = processAlertLinks(),
): Promise<AlertEventRow[]> {
  if (events.length === 0) return [];
  const rows = await tx
    .insert(alertEvent)
    .values(
      events.map((event) => ({
        id: randomUUID(),
        organizationId,
        type: event.type,
        monitorId: event.monitorId,
        trackedLinkId: event.trackedLinkId,
        checkId: event.checkId,
        before: event.before,
        after: event.after,
        dedupeKey: event.dedupeKey ?? null,
        createdAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning();
  await emailImmediately(tx, organizationId, rows, links);
  await queueWebhooks(tx, organizationId, rows, links, now);
  return rows;
}
