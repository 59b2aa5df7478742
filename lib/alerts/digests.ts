import { and, eq, gte, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { alertDelivery, alertEvent, digestRun, member, notificationPreference, organization } from "../db/schema";
import { queueAlertEmail, sectionsFor } from "./deliver";
import { digestEmail } from "./email";
import type { AlertLinks } from "./links";
import { mutes, organizationRecipients, placesOf, wants, type Recipient } from "./recipients";

/**
 * Digest emails: users who chose `daily` or `weekly` get one email per period at their hour (UTC) with
 * the period's events they were not emailed yet, grouped by monitor. The scheduler calls runDigests on
 * every tick of every instance; a digest_run row (user, organization, period) claimed in the same
 * transaction as the email makes each digest happen once, and a crash before commit leaves it to the
 * next tick. Nothing goes out before the hour; a digest missed because no instance ran at the hour goes
 * out if one runs within 3 hours, never twice.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A digest whose hour passed while no instance ran (a deploy, an outage) still goes out within this time. */
const CATCH_UP_MS = 3 * HOUR_MS;

type Period = { key: string; start: Date; windowStart: Date };

function utcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The digest period `now` falls in for a user, if their digest is due now (at or up to 3 hours after their hour). */
export function duePeriod(mode: "daily" | "weekly", digestHourUtc: number, now: Date): Period | null {
  const today = utcMidnight(now);
  let start: Date;
  if (mode === "daily") {
    start = new Date(today.getTime() + digestHourUtc * HOUR_MS);
    if (start > now) start = new Date(start.getTime() - DAY_MS);
  } else {
    // Weekly digests go out on Mondays.
    const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY_MS);
    start = new Date(monday.getTime() + digestHourUtc * HOUR_MS);
    if (start > now) start = new Date(start.getTime() - 7 * DAY_MS);
  }
  if (now.getTime() - start.getTime() >= CATCH_UP_MS) return null;
  const length = mode === "daily" ? DAY_MS : 7 * DAY_MS;
  return { key: `${mode}:${start.toISOString().slice(0, 13)}`, start, windowStart: new Date(start.getTime() - length) };
}

/** Sends every digest due at `now`; answers how many emails were queued. */
export async function runDigests(db: Db, now: Date, links: AlertLinks): Promise<number> {
  const candidates = await db
    .select({
      userId: notificationPreference.userId,
      organizationId: notificationPreference.organizationId,
      email: notificationPreference.email,
      hour: notificationPreference.digestHourUtc,
    })
    .from(notificationPreference)
    .innerJoin(
      member,
      and(
        eq(member.userId, notificationPreference.userId),
        eq(member.organizationId, notificationPreference.organizationId),
      ),
    )
    .where(inArray(notificationPreference.email, ["daily", "weekly"]));
  let queued = 0;
  for (const candidate of candidates) {
    const mode = candidate.email as "daily" | "weekly";
    const period = duePeriod(mode, candidate.hour, now);
    if (!period) continue;
    queued += await db.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(digestRun)
        .values({
          userId: candidate.userId,
          organizationId: candidate.organizationId,
          period: period.key,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!claimed) return 0;
      const [recipient] = await organizationRecipients(tx, candidate.organizationId, [candidate.userId]);
      if (!recipient) return 0;
      return sendDigest(tx, recipient, candidate.organizationId, mode, period, now, links);
    });
  }
  return queued;
}

async function sendDigest(
  tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
  recipient: Recipient,
  organizationId: string,
  mode: "daily" | "weekly",
  period: Period,
  now: Date,
  links: AlertLinks,
): Promise<number> {
  const rows = await tx
    .select({ event: alertEvent })
    .from(alertEvent)
    .leftJoin(alertDelivery, and(eq(alertDelivery.eventId, alertEvent.id), eq(alertDelivery.userId, recipient.userId)))
    .where(
      and(
        eq(alertEvent.organizationId, organizationId),
        gte(alertEvent.createdAt, period.windowStart),
        isNull(alertDelivery.eventId),
      ),
    )
    .orderBy(alertEvent.createdAt, alertEvent.id);
  const pending = rows.map((row) => row.event).filter((event) => event.createdAt <= now);
  const muted = await mutes(
    tx,
    [recipient.userId],
    pending.map((event) => event.monitorId),
  );
  const events = pending.filter((event) => wants(recipient, muted, event));
  if (events.length === 0) return 0;
  const [org] = await tx
    .select({ name: organization.name })
    .from(organization)
    .where(eq(organization.id, organizationId))
    .limit(1);
  const sections = sectionsFor(events, recipient, links, await placesOf(tx, events));
  const content = digestEmail({
    period: mode,
    organizationName: org?.name ?? "your team",
    sections: sections.map((s) => s.section),
    settingsUrl: links.settings(),
  });
  await queueAlertEmail(tx, {
    organizationId,
    recipient,
    content,
    unsubscribe: { kind: "off", userId: recipient.userId, organizationId },
    events,
    links,
  });
  return 1;
}
