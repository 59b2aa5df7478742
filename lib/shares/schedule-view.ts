import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { reportRecipient, reportSchedule } from "../db/schema";
import type { ShareSchedule } from "../schemas/share-schedules";

/**
 * A share's scheduled report as every Share answer carries it (`schedule`, null without one). The
 * schedule is made, sent and confirmed by lib/reports; a share only shows it.
 */

export type ScheduleRow = typeof reportSchedule.$inferSelect;
export type RecipientRow = typeof reportRecipient.$inferSelect;

/** The answer's shape: recipients in the order they were added. */
export function scheduleView(row: ScheduleRow, recipients: readonly RecipientRow[]): ShareSchedule {
  return {
    cadence: row.cadence,
    weekday: row.weekday,
    dayOfMonth: row.dayOfMonth,
    hourUtc: row.hourUtc,
    recipients: recipients.map((recipient) => ({ email: recipient.email, status: recipient.status })),
    nextSendAt: row.nextSendAt.toISOString(),
    lastSentAt: row.lastSentAt?.toISOString() ?? null,
  };
}

/** The schedules of these shares of the organization, by share id (shares without one are absent). */
export async function schedulesOf(
  db: Pick<Db, "select">,
  organizationId: string,
  shareIds: readonly string[],
): Promise<Map<string, ShareSchedule>> {
  if (shareIds.length === 0) return new Map();
  const schedules = await db
    .select()
    .from(reportSchedule)
    .where(and(eq(reportSchedule.organizationId, organizationId), inArray(reportSchedule.shareId, [...shareIds])));
  if (schedules.length === 0) return new Map();
  const recipients = await db
    .select()
    .from(reportRecipient)
    .where(
      and(
        eq(reportRecipient.organizationId, organizationId),
        inArray(
          reportRecipient.shareId,
          schedules.map((row) => row.shareId),
        ),
      ),
    )
    .orderBy(asc(reportRecipient.createdAt), asc(reportRecipient.email));
  return new Map(
    schedules.map((row) => [
      row.shareId,
      scheduleView(
        row,
        recipients.filter((recipient) => recipient.shareId === row.shareId),
      ),
    ]),
  );
}
