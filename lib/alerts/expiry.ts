import { and, eq, gte, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { monitor, trackedLink } from "../db/schema";
import { recordAlertEvents, type NewAlertEvent } from "./events";
import type { AlertLinks } from "./links";

/**
 * `link_expiring` reminders, 7 days and 1 day before a tracked link's `expiresOn` (a paid placement's
 * end): computed by the scheduler's daily pass, never on page load. Each reminder has a dedupe key
 * (expiresOn and which reminder), so however many instances run the pass, and however often, a
 * reminder exists — and is emailed — once. A link added 3 days before its expiry gets the week's
 * reminder at once ("within a week"), and the day's reminder the day before.
 */

const DAY_MS = 86_400_000;

function utcDate(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** Which reminder a link is due for, if any: "7" within a week (2–7 days left), "1" on the last day (0–1). */
export function reminderFor(expiresOn: string, today: string): { key: "7" | "1"; daysLeft: number } | null {
  const daysLeft = Math.round((Date.parse(`${expiresOn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
  if (daysLeft < 0 || daysLeft > 7) return null;
  return { key: daysLeft <= 1 ? "1" : "7", daysLeft };
}

/** Writes the reminders due on `now`'s UTC day (and their emails); answers how many were new. */
export async function runExpiryReminders(db: Db, now: Date, links: AlertLinks): Promise<number> {
  const today = utcDate(now);
  const rows = await db
    .select({
      id: trackedLink.id,
      organizationId: trackedLink.organizationId,
      monitorId: trackedLink.monitorId,
      expiresOn: trackedLink.expiresOn,
      state: trackedLink.state,
    })
    .from(trackedLink)
    .innerJoin(monitor, eq(monitor.id, trackedLink.monitorId))
    .where(
      and(
        gte(trackedLink.expiresOn, today),
        lte(trackedLink.expiresOn, utcDate(new Date(now.getTime() + 7 * DAY_MS))),
        eq(monitor.paused, false),
      ),
    );
  const byOrganization = new Map<string, NewAlertEvent[]>();
  for (const row of rows) {
    if (!row.expiresOn) continue;
    const due = reminderFor(row.expiresOn, today);
    if (!due) continue;
    const event: NewAlertEvent = {
      type: "link_expiring",
      monitorId: row.monitorId,
      trackedLinkId: row.id,
      checkId: null,
      before: null,
      after: { expiresOn: row.expiresOn, daysLeft: due.daysLeft, state: row.state },
      dedupeKey: `${row.expiresOn}:${due.key}`,
    };
    byOrganization.set(row.organizationId, [...(byOrganization.get(row.organizationId) ?? []), event]);
  }
  let written = 0;
  for (const [organizationId, events] of byOrganization) {
    written += await db.transaction(
      async (tx) => (await recordAlertEvents(tx, organizationId, events, now, links)).length,
    );
  }
  return written;
}
