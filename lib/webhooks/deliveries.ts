import { randomUUID } from "node:crypto";
import { and, eq, inArray, lte, or } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { keysetPage, type PageRequest } from "../db/keyset";
import { webhookDelivery } from "../db/schema";
import { ApiError } from "../errors";
import type { WebhookDelivery } from "../schemas/webhooks";
import { runAttempt, type WebhookDeps } from "./attempt";
import { webhooksPageUrl } from "./disable";
import { findEndpoint } from "./endpoints";
import { pingMessage } from "./message";
import { loadClaimed } from "./claim";

/**
 * Deliveries of one endpoint (webhooks.md): the list, a manual retry and a test ping. A retry and a
 * ping make their attempt inside the request and answer once it is over — the one place a request
 * sends something, because the person asked for exactly that — with the same claim as the sender, so
 * a delivery is never attempted by two at once.
 */

type Row = typeof webhookDelivery.$inferSelect;

/** Lease of a person's attempt: it ends within the 10 s deadline; the lease only guards a crash. */
const MANUAL_LEASE_MS = 60_000;

export function deliveryView(row: Row): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type,
    attempt: row.attempts,
    // `sending` is an attempt under way: the delivery is still waiting for its outcome.
    status: row.status === "sending" ? "pending" : row.status,
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
  };
}

export async function listDeliveries(ctx: AccountContext, endpointId: string, page: PageRequest) {
  const endpoint = await findEndpoint(ctx, endpointId);
  const keys = { createdAt: webhookDelivery.createdAt, id: webhookDelivery.id };
  return keysetPage(
    ctx.db.select().from(webhookDelivery).$dynamic(),
    { keys, direction: "desc", where: eq(webhookDelivery.endpointId, endpoint.id), page },
    deliveryView,
  );
}

async function readDelivery(ctx: AccountContext, id: string): Promise<Row> {
  const [row] = await ctx.db.select().from(webhookDelivery).where(eq(webhookDelivery.id, id)).limit(1);
  if (!row)
    throw new ApiError("NOT_FOUND", "The webhook was deleted during the attempt.", {
      hint: "Reload the webhooks page.",
    });
  return row;
}

/** Re-sends a `failed` or `pending` delivery now (same webhook-id); 409 while another attempt runs, or once delivered. */
export async function retryDelivery(
  ctx: AccountContext & Partial<WebhookDeps>,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const endpoint = await findEndpoint(ctx, endpointId);
  const [row] = await ctx.db
    .select()
    .from(webhookDelivery)
    .where(and(eq(webhookDelivery.id, deliveryId), eq(webhookDelivery.endpointId, endpoint.id)))
    .limit(1);
  if (!row)
    throw new ApiError("NOT_FOUND", "No delivery with this id on this webhook.", {
      hint: "Use an id from GET /api/account/webhooks/{id}/deliveries.",
    });
  if (row.status === "delivered")
    throw new ApiError("CONFLICT", "This delivery was delivered already.", {
      hint: "Only failed or pending deliveries can be retried.",
    });
  if (row.type === "ping")
    throw new ApiError("CONFLICT", "A test ping is never retried.", {
      hint: "Send a new test: POST /api/account/webhooks/{id}/test.",
    });
  const now = ctx.now();
  const claimable = or(
    inArray(webhookDelivery.status, ["pending", "failed"]),
    and(eq(webhookDelivery.status, "sending"), lte(webhookDelivery.leaseUntil, now)),
  );
  const [claim] = await ctx.db
    .update(webhookDelivery)
    .set({
      status: "sending",
      attempts: row.attempts + 1,
      leaseUntil: new Date(now.getTime() + MANUAL_LEASE_MS),
      lastAttemptAt: now,
    })
    .where(and(eq(webhookDelivery.id, row.id), eq(webhookDelivery.attempts, row.attempts), claimable))
    .returning({ id: webhookDelivery.id, attempts: webhookDelivery.attempts });
  if (!claim)
    throw new ApiError("CONFLICT", "An attempt of this delivery is under way.", {
      hint: "Wait a few seconds and reload the deliveries.",
    });
  const [claimed] = await loadClaimed(ctx, [{ ...claim, previous: row.status }]);
  if (claimed) await runAttempt(ctx, claimed, "manual");
  return deliveryView(await readDelivery(ctx, row.id));
}

/** Sends a `ping` now: one attempt, never retried; answers the delivery once it is over. */
export async function testWebhook(
  ctx: AccountContext & Partial<WebhookDeps>,
  endpointId: string,
): Promise<WebhookDelivery> {
  const endpoint = await findEndpoint(ctx, endpointId);
  const now = ctx.now();
  const message = pingMessage(
    { id: ctx.organization.id, name: ctx.organization.name },
    webhooksPageUrl(ctx.settings),
    now,
  );
  const id = randomUUID();
  // Written already claimed: the sender never picks a ping up.
  await ctx.db.insert(webhookDelivery).values({
    id,
    organizationId: ctx.organization.id,
    endpointId: endpoint.id,
    eventId: null,
    type: "ping",
    payload: message as unknown as Record<string, unknown>,
    status: "sending",
    attempts: 1,
    leaseUntil: new Date(now.getTime() + MANUAL_LEASE_MS),
    lastAttemptAt: now,
    createdAt: now,
    nextAttemptAt: now,
  });
  const [claimed] = await loadClaimed(ctx, [{ id, attempts: 1, previous: "pending" }]);
  if (claimed) await runAttempt(ctx, claimed, "ping");
  return deliveryView(await readDelivery(ctx, id));
}
