import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { organization, webhookDelivery, webhookEndpoint } from "../db/schema";
import { eventMessage, type EventDelivery, type OrganizationRef } from "./message";

/**
 * The delivery writer: alert events become delivery rows in the transaction that writes them (the
 * outbox, like email), one per (event, endpoint) whose types include the event's. The sender
 * (./sender.ts) delivers them later; nothing is sent from here.
 */

/** A Drizzle database or an open transaction. */
export type DbOrTx = Pick<Db, "insert" | "select" | "update" | "delete" | "execute">;

export interface WebhookTargets {
  organization: OrganizationRef;
  endpoints: Array<{ id: string; types: string[] }>;
}

/** The organization's enabled endpoints (null when it has none: the caller skips describing its events). */
export async function webhookTargets(tx: DbOrTx, organizationId: string): Promise<WebhookTargets | null> {
  const endpoints = await tx
    .select({ id: webhookEndpoint.id, types: webhookEndpoint.types })
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.organizationId, organizationId), eq(webhookEndpoint.enabled, true)));
  if (endpoints.length === 0) return null;
  const [org] = await tx
    .select({ id: organization.id, name: organization.name })
    .from(organization)
    .where(eq(organization.id, organizationId))
    .limit(1);
  return org ? { organization: org, endpoints } : null;
}

/** Writes the deliveries of these events (in the caller's transaction); answers how many rows were written. */
export async function writeWebhookDeliveries(
  tx: DbOrTx,
  targets: WebhookTargets,
  deliveries: readonly EventDelivery[],
  now: Date,
): Promise<number> {
  const rows = deliveries.flatMap((delivery) => {
    const payload = eventMessage(delivery, targets.organization) as unknown as Record<string, unknown>;
    return targets.endpoints
      .filter((endpoint) => endpoint.types.includes(delivery.event.type))
      .map((endpoint) => ({
        id: randomUUID(),
        organizationId: targets.organization.id,
        endpointId: endpoint.id,
        eventId: delivery.event.id,
        type: delivery.event.type,
        payload,
        createdAt: now,
        nextAttemptAt: now,
      }));
  });
  if (rows.length === 0) return 0;
  // An event written twice (a retried transaction) keeps its first delivery per endpoint.
  const written = await tx
    .insert(webhookDelivery)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: webhookDelivery.id });
  return written.length;
}
