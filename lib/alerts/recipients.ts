import { and, eq, inArray } from "drizzle-orm";
import { member, monitor, monitorMute, notificationPreference, trackedLink, user } from "../db/schema";
import type { DbOrTx } from "./events";
import { ALERT_TYPES, DEFAULT_PREFERENCES, type AlertType, type NotificationPreferences } from "./types";

/**
 * Who is emailed about an organization's events: its members now (a removed member is no longer a row
 * of `member`, so gets nothing more), each with their preferences (defaults when never set) and the
 * monitors they muted.
 */

export interface Recipient {
  userId: string;
  email: string;
  preferences: NotificationPreferences;
}

export async function organizationRecipients(
  db: DbOrTx,
  organizationId: string,
  userIds?: readonly string[],
): Promise<Recipient[]> {
  const rows = await db
    .select({
      userId: member.userId,
      email: user.email,
      mode: notificationPreference.email,
      types: notificationPreference.types,
      hour: notificationPreference.digestHourUtc,
    })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .leftJoin(
      notificationPreference,
      and(
        eq(notificationPreference.userId, member.userId),
        eq(notificationPreference.organizationId, member.organizationId),
      ),
    )
    .where(
      userIds
        ? and(eq(member.organizationId, organizationId), inArray(member.userId, [...userIds]))
        : eq(member.organizationId, organizationId),
    );
  return rows.map((row) => ({
    userId: row.userId,
    email: row.email,
    preferences:
      row.mode === null
        ? { ...DEFAULT_PREFERENCES, types: [...DEFAULT_PREFERENCES.types] }
        : {
            email: row.mode,
            types: ALERT_TYPES.filter((type) => (row.types ?? []).includes(type)),
            digestHourUtc: row.hour ?? DEFAULT_PREFERENCES.digestHourUtc,
          },
  }));
}

/** "userId|monitorId" of every mute among these users and monitors. */
export async function mutes(
  db: DbOrTx,
  userIds: readonly string[],
  monitorIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0 || monitorIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: monitorMute.userId, monitorId: monitorMute.monitorId })
    .from(monitorMute)
    .where(and(inArray(monitorMute.userId, [...userIds]), inArray(monitorMute.monitorId, [...new Set(monitorIds)])));
  return new Set(rows.map((row) => `${row.userId}|${row.monitorId}`));
}

/** The monitored page of each monitor and the target of each tracked link the events name. */
export async function placesOf(db: DbOrTx, events: ReadonlyArray<{ monitorId: string; trackedLinkId: string | null }>) {
  const monitorIds = [...new Set(events.map((event) => event.monitorId))];
  const linkIds = [...new Set(events.flatMap((event) => (event.trackedLinkId ? [event.trackedLinkId] : [])))];
  const pages = monitorIds.length
    ? await db.select({ id: monitor.id, url: monitor.url }).from(monitor).where(inArray(monitor.id, monitorIds))
    : [];
  const targets = linkIds.length
    ? await db
        .select({ id: trackedLink.id, target: trackedLink.target })
        .from(trackedLink)
        .where(inArray(trackedLink.id, linkIds))
    : [];
  return {
    pageOf: new Map(pages.map((row) => [row.id, row.url])),
    targetOf: new Map(targets.map((row) => [row.id, row.target])),
  };
}

/** Whether a recipient wants an event of this type about this monitor by email. */
export function wants(
  recipient: Recipient,
  muted: Set<string>,
  event: { type: AlertType; monitorId: string },
): boolean {
  return recipient.preferences.types.includes(event.type) && !muted.has(`${recipient.userId}|${event.monitorId}`);
}
