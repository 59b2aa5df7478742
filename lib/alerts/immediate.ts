import { queueAlertEmail, sectionsFor } from "./deliver";
import { alertEmail } from "./email";
import type { AlertEventRow, DbOrTx } from "./events";
import type { AlertLinks } from "./links";
import { mutes, organizationRecipients, placesOf, wants } from "./recipients";

/**
 * Immediate alert emails for events just written, in the same transaction: one email per recipient and
 * monitor (a check's changes on one page arrive as one message), to every member whose preference is
 * `immediate`, who wants these types and has not muted the monitor.
 */
export async function emailImmediately(
  tx: DbOrTx,
  organizationId: string,
  events: AlertEventRow[],
  links: AlertLinks,
): Promise<number> {
  if (events.length === 0) return 0;
  const recipients = (await organizationRecipients(tx, organizationId)).filter(
    (recipient) => recipient.preferences.email === "immediate",
  );
  if (recipients.length === 0) return 0;
  const muted = await mutes(
    tx,
    recipients.map((recipient) => recipient.userId),
    events.map((event) => event.monitorId),
  );
  const places = await placesOf(tx, events);
  let queued = 0;
  for (const recipient of recipients) {
    const theirs = events.filter((event) => wants(recipient, muted, event));
    for (const { section, events: grouped } of sectionsFor(theirs, recipient, links, places)) {
      const monitorId = grouped[0]?.monitorId ?? "";
      await queueAlertEmail(tx, {
        organizationId,
        recipient,
        content: alertEmail(section),
        unsubscribe: { kind: "mute", userId: recipient.userId, monitorId },
        events: grouped,
        links,
      });
      queued += 1;
    }
  }
  return queued;
}
