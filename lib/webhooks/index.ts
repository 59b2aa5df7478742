import type { Config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { onShutdown } from "../shutdown";
import { startWebhookSender } from "./sender";

/**
 * Webhooks (webhooks.md): endpoints, the delivery outbox and its sender. Below lib/account and
 * lib/alerts on the floors: alerts write deliveries with their events (./queue.ts), never the reverse.
 */

export { writeWebhookDeliveries, webhookTargets, type WebhookTargets } from "./queue";
export type { Change, EventDelivery } from "./message";

/** Starts this instance's webhook sender (every instance runs one, like the email sender); stopped by the shutdown hooks. */
export function startWebhookDelivery(config: Config, db: Db): void {
  const sender = startWebhookSender(
    { db, settings: config, now: () => new Date() },
    { onError: (error) => log.warn({ err: error }, "webhook delivery pass failed") },
  );
  onShutdown("webhook-sender", () => sender.stop());
}
