import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import { listenOrigin, type Config } from "../config";
import type { Db } from "../db/client";
import { member, organization, user, webhookDelivery, webhookEndpoint } from "../db/schema";
import { recordActivity } from "../auth/activity-log";
import { enqueueEmail } from "../mail/outbox";
import { webhookDisabledEmail } from "../mail/templates";

/**
 * Turning an endpoint off (webhooks.md): its waiting deliveries become `failed` ("the endpoint was
 * disabled"), and when LinkLens does it on its own — a delivery used all its attempts and the endpoint
 * has not succeeded since — the activity log says so and the organization's admins and owners get an email,
 * in the same transaction as the switch (at most once, even with several senders).
 */

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type DbOrTx = Db | Tx;

export const DISABLED_ERROR = "The endpoint was disabled.";

/** Pending deliveries of the endpoint (and claims whose sender died) are over. Attempts in flight finish and are recorded. */
export async function failWaitingDeliveries(tx: DbOrTx, endpointId: string, now: Date): Promise<void> {
  await tx
    .update(webhookDelivery)
    .set({ status: "failed", leaseUntil: null, error: DISABLED_ERROR })
    .where(
      and(
        eq(webhookDelivery.endpointId, endpointId),
        or(
          eq(webhookDelivery.status, "pending"),
          and(eq(webhookDelivery.status, "sending"), lte(webhookDelivery.leaseUntil, now)),
        ),
      ),
    );
}

/** Where admins manage webhooks (SITE_URL, else the listen address, like alert emails). */
export function webhooksPageUrl(settings: Pick<Config, "SITE_URL" | "PORT" | "HOSTNAME">): string {
  return `${(settings.SITE_URL ?? listenOrigin(settings)).replace(/\/+$/, "")}/app/webhooks`;
}

/** The host (and path start) of an endpoint URL, for emails and the activity log: the full URL may hold a token (Slack's does). */
export function endpointLabel(url: string): string {
  const parsed = URL.parse(url);
  return parsed ? parsed.host : "the endpoint";
}

/**
 * Disables the endpoint after a delivery ran out of attempts, unless it is off already (another sender
 * got there first). Answers whether this call switched it off.
 */
export async function disableFailingEndpoint(
  tx: Tx,
  input: {
    endpointId: string;
    attempts: number;
    lastError: string | null;
    now: Date;
    settings: Pick<Config, "SITE_URL" | "PORT" | "HOSTNAME">;
  },
): Promise<boolean> {
  const [switched] = await tx
    .update(webhookEndpoint)
    .set({ enabled: false, updatedAt: input.now })
    .where(and(eq(webhookEndpoint.id, input.endpointId), eq(webhookEndpoint.enabled, true)))
    .returning({
      id: webhookEndpoint.id,
      organizationId: webhookEndpoint.organizationId,
      url: webhookEndpoint.url,
      description: webhookEndpoint.description,
    });
  if (!switched) return false;
  await failWaitingDeliveries(tx, switched.id, input.now);
  const label = endpointLabel(switched.url);
  await recordActivity(tx, {
    organizationId: switched.organizationId,
    actor: null,
    action: "webhook.disabled",
    target: { type: "webhook", id: switched.id },
    details: {
      host: label,
      reason: `a delivery failed ${input.attempts} times and the endpoint has not succeeded since`,
      lastError: input.lastError,
    },
  });
  const [org] = await tx
    .select({ name: organization.name })
    .from(organization)
    .where(eq(organization.id, switched.organizationId))
    .limit(1);
  const admins = await tx
    .select({ userId: member.userId, email: user.email })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, switched.organizationId), inArray(member.role, ["admin", "owner"])));
  const endpoint = switched.description ? `${label} (${switched.description})` : label;
  const content = webhookDisabledEmail({
    organizationName: org?.name ?? "your team",
    endpoint,
    attempts: input.attempts,
    lastError: input.lastError,
    settingsUrl: webhooksPageUrl(input.settings),
  });
  for (const admin of admins)
    await enqueueEmail(tx, {
      to: admin.email,
      content,
      organizationId: switched.organizationId,
      recipientUserId: admin.userId,
    });
  return true;
}

/** `consecutive_failures + 1` (pings never count). */
export const oneMoreFailure = sql`${webhookEndpoint.consecutiveFailures} + 1`;
