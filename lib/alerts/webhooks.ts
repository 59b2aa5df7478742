import { webhookTargets, writeWebhookDeliveries, type EventDelivery } from "../webhooks";
import { describeEvent } from "./describe";
import type { AlertEventRow, DbOrTx } from "./events";
import type { AlertLinks } from "./links";
import { alertEventView } from "./list";
import { placesOf } from "./recipients";

/**
 * Webhook deliveries of events just written, in the same transaction (webhooks.md "Delivery"): each
 * event goes to every enabled endpoint of the organization that wants its type, described in the
 * words of its email (headline, before → after) for the chat channels. Nothing is looked up when the
 * organization has no endpoint.
 */
export async function queueWebhooks(
  tx: DbOrTx,
  organizationId: string,
  events: AlertEventRow[],
  links: AlertLinks,
  now: Date,
): Promise<number> {
  if (events.length === 0) return 0;
  const targets = await webhookTargets(tx, organizationId);
  if (!targets) return 0;
  const { pageOf, targetOf } = await placesOf(tx, events);
  const deliveries: EventDelivery[] = events.map((event) => {
    const pageUrl = pageOf.get(event.monitorId) ?? "";
    const target = event.trackedLinkId ? (targetOf.get(event.trackedLinkId) ?? null) : null;
    const words = describeEvent(event, { pageUrl, target });
    return {
      event: alertEventView(event),
      monitor: { id: event.monitorId, url: pageUrl },
      trackedLink: event.trackedLinkId && target !== null ? { id: event.trackedLinkId, target } : null,
      appUrl: links.monitor(event.monitorId),
      headline: words.headline,
      changes: words.changes,
    };
  });
  return writeWebhookDeliveries(tx, targets, deliveries, now);
}
