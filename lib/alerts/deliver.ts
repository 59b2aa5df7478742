import { alertDelivery } from "../db/schema";
import { enqueueEmail } from "../mail/outbox";
import type { EmailContent } from "../mail/templates";
import type { AlertEventRow, DbOrTx } from "./events";
import type { AlertLinks } from "./links";
import { unsubscribeHeaders } from "./links";
import type { MonitorSection } from "./email";
import type { placesOf, Recipient } from "./recipients";
import type { MuteAction } from "./tokens";

/**
 * Writes one email to the outbox and a delivery row per event it carries, in the caller's transaction.
 * The delivery table's primary key (event, user) is the "at most once per recipient" rule: an event
 * already delivered to this user makes the insert conflict, and the whole transaction (email included)
 * rolls back rather than send it twice.
 */
export async function queueAlertEmail(
  tx: DbOrTx,
  input: {
    organizationId: string;
    recipient: Recipient;
    content: EmailContent;
    unsubscribe: MuteAction;
    events: AlertEventRow[];
    links: AlertLinks;
  },
): Promise<string> {
  const outboxId = await enqueueEmail(tx, {
    to: input.recipient.email,
    content: input.content,
    organizationId: input.organizationId,
    recipientUserId: input.recipient.userId,
    headers: unsubscribeHeaders(input.links, input.unsubscribe),
  });
  await tx
    .insert(alertDelivery)
    .values(input.events.map((event) => ({ eventId: event.id, userId: input.recipient.userId, outboxId })));
  return outboxId;
}

export type Places = Awaited<ReturnType<typeof placesOf>>;

/** Groups events by monitor (in first-seen order) into email sections for one recipient. */
export function sectionsFor(
  events: AlertEventRow[],
  recipient: Recipient,
  links: AlertLinks,
  { pageOf, targetOf }: Places,
): Array<{ section: MonitorSection; events: AlertEventRow[] }> {
  const byMonitor = new Map<string, AlertEventRow[]>();
  for (const event of events) byMonitor.set(event.monitorId, [...(byMonitor.get(event.monitorId) ?? []), event]);
  return [...byMonitor].map(([monitorId, grouped]) => ({
    events: grouped,
    section: {
      monitorUrl: pageOf.get(monitorId) ?? "",
      appUrl: links.monitor(monitorId),
      muteUrl: links.mute({ kind: "mute", userId: recipient.userId, monitorId }),
      events: grouped.map((event) => ({
        type: event.type,
        before: event.before,
        after: event.after,
        target: event.trackedLinkId ? (targetOf.get(event.trackedLinkId) ?? null) : null,
      })),
    },
  }));
}
