import { randomUUID } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import { assertPublicUrl, type FetchPublicOptions } from "../analyzer";
import { recordActivity } from "../auth/activity-log";
import type { AccountContext, OrganizationScope } from "../auth/guard";
import { keysetPage, type PageRequest } from "../db/keyset";
import { organization, webhookEndpoint } from "../db/schema";
import { resolveAuthSecret } from "../db/secret";
import { ApiError } from "../errors";
import { ALERT_TYPES } from "../schemas/alerts";
import {
  MAX_WEBHOOKS,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookKind,
  type WebhookWithSecret,
} from "../schemas/webhooks";
import { CHANNELS } from "./channels";
import { endpointLabel, failWaitingDeliveries } from "./disable";
import { generateSecret, sealSecret } from "./secret";
import { parseChannelUrl } from "./url";
import { isMaskEcho, maskWebhookUrl, refuseMaskedUrl } from "./url-mask";

/**
 * Webhook endpoints of an organization (webhooks.md "Endpoints"): admins and owners create, change,
 * delete and rotate; every member reads. Every query is scoped to the caller's organization, so another
 * organization's ids are unknown ids (404). The secret is shown on creation and rotation only, stored
 * sealed (./secret.ts), and never written to the activity log. A chat kind's URL is a credential too: whole
 * in the create answer only, masked in every other (./url-mask.ts).
 */

type Row = typeof webhookEndpoint.$inferSelect;

export function webhookView(row: Row): Webhook {
  return {
    id: row.id,
    url: maskWebhookUrl(row.kind, row.url),
    kind: row.kind,
    types: ALERT_TYPES.filter((type) => row.types.includes(type)),
    enabled: row.enabled,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
    lastStatus: row.lastStatus,
    consecutiveFailures: row.consecutiveFailures,
  };
}

const notFound = () =>
  new ApiError("NOT_FOUND", "No webhook with this id in your organization.", {
    hint: "Use an id from GET /api/account/webhooks.",
  });

export async function findEndpoint(ctx: OrganizationScope, id: string): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.organizationId, ctx.organization.id), eq(webhookEndpoint.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** 404 unless the endpoint is the organization's (the check order looks ids up before bodies). */
export async function assertWebhookExists(ctx: AccountContext, id: string): Promise<void> {
  await findEndpoint(ctx, id);
}

export async function listWebhooks(ctx: AccountContext, page: PageRequest) {
  const keys = { createdAt: webhookEndpoint.createdAt, id: webhookEndpoint.id };
  return keysetPage(
    ctx.db.select().from(webhookEndpoint).$dynamic(),
    { keys, direction: "asc", where: eq(webhookEndpoint.organizationId, ctx.organization.id), page },
    webhookView,
  );
}

/** Every endpoint of the organization, oldest first (the settings page; at most MAX_WEBHOOKS). */
export async function allWebhooks(ctx: AccountContext): Promise<Webhook[]> {
  const rows = await ctx.db
    .select()
    .from(webhookEndpoint)
    .where(eq(webhookEndpoint.organizationId, ctx.organization.id))
    .orderBy(asc(webhookEndpoint.createdAt), asc(webhookEndpoint.id));
  return rows.map(webhookView);
}

export async function getWebhook(ctx: AccountContext, id: string): Promise<Webhook> {
  return webhookView(await findEndpoint(ctx, id));
}

/** Tests give the URL check a resolver of their own (DNS rebinding); requests use the system's. */
type WithResolver = AccountContext & { resolver?: FetchPublicOptions["resolver"] };

/** The URL rules of `kind` (400 INVALID_URL) and the network policy (403 BLOCKED_URL), as for the analyzer's `url`. */
async function checkedUrl(ctx: WithResolver, kind: WebhookKind, raw: string): Promise<string> {
  const url = parseChannelUrl(CHANNELS[kind], raw, ctx.settings.ALLOW_PRIVATE_HOSTS);
  try {
    await assertPublicUrl(url, ctx.settings, { resolver: ctx.resolver });
  } catch (error) {
    if (error instanceof ApiError && error.code === "BLOCKED_URL") {
      throw new ApiError("BLOCKED_URL", error.message, {
        hint: "Webhooks go to public addresses only: use your receiver's public https URL.",
        cause: error,
      });
    }
    throw error;
  }
  return url.href;
}

function sealed(ctx: AccountContext, secret: string): string {
  return sealSecret(secret, resolveAuthSecret(ctx.settings));
}

export async function createWebhook(ctx: WithResolver, input: CreateWebhookInput): Promise<WebhookWithSecret> {
  refuseMaskedUrl(input.kind, input.url);
  const url = await checkedUrl(ctx, input.kind, input.url);
  const secret = generateSecret();
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    // Two admins creating the 10th and 11th endpoint at once: the organization's row lock makes them take turns.
    await tx
      .select({ id: organization.id })
      .from(organization)
      .where(eq(organization.id, ctx.organization.id))
      .for("update");
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoint)
      .where(eq(webhookEndpoint.organizationId, ctx.organization.id));
    if ((existing?.n ?? 0) >= MAX_WEBHOOKS) {
      throw new ApiError("CONFLICT", `An organization has at most ${MAX_WEBHOOKS} webhooks.`, {
        hint: "Delete one you no longer use, or send several alert types to one endpoint.",
      });
    }
    const [created] = await tx
      .insert(webhookEndpoint)
      .values({
        id: randomUUID(),
        organizationId: ctx.organization.id,
        url,
        kind: input.kind,
        types: input.types ?? [...ALERT_TYPES],
        description: input.description,
        secretCiphertext: sealed(ctx, secret),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error("insert returned no row");
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "webhook.created",
      target: { type: "webhook", id: created.id },
      details: { host: endpointLabel(url), kind: created.kind, types: created.types, description: created.description },
    });
    return created;
  });
  // The one answer that shows a chat URL whole: the admin who pasted it sees what was stored.
  return { ...webhookView(row), url: row.url, secret };
}

/** The URL a PATCH stores: undefined when it sent none, or sent back the stored one's masked form. */
async function changedUrl(ctx: WithResolver, id: string, sent: string | undefined): Promise<string | undefined> {
  if (sent === undefined) return undefined;
  const current = await findEndpoint(ctx, id);
  if (isMaskEcho(current.kind, sent, current.url)) return undefined;
  refuseMaskedUrl(current.kind, sent);
  return checkedUrl(ctx, current.kind, sent);
}

export async function updateWebhook(ctx: WithResolver, id: string, patch: UpdateWebhookInput): Promise<Webhook> {
  const url = await changedUrl(ctx, id, patch.url);
  const input = { ...patch, url };
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(webhookEndpoint)
      .where(and(eq(webhookEndpoint.organizationId, ctx.organization.id), eq(webhookEndpoint.id, id)))
      .for("update");
    if (!current) throw notFound();
    const reEnabling = input.enabled === true && !current.enabled;
    const [updated] = await tx
      .update(webhookEndpoint)
      .set({
        ...(url === undefined ? {} : { url }),
        ...(input.types === undefined ? {} : { types: input.types }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...(reEnabling ? { consecutiveFailures: 0 } : {}),
        updatedAt: now,
      })
      .where(eq(webhookEndpoint.id, id))
      .returning();
    if (!updated) throw notFound();
    if (input.enabled === false && current.enabled) await failWaitingDeliveries(tx, id, now);
    const changed = (["url", "types", "enabled", "description"] as const).filter(
      (field) => input[field] !== undefined && JSON.stringify(current[field]) !== JSON.stringify(updated[field]),
    );
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "webhook.updated",
      target: { type: "webhook", id },
      details: {
        host: endpointLabel(updated.url),
        changed,
        enabled: updated.enabled,
        types: updated.types,
        description: updated.description,
      },
    });
    return updated;
  });
  return webhookView(row);
}

export async function deleteWebhook(ctx: AccountContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(webhookEndpoint)
      .where(and(eq(webhookEndpoint.organizationId, ctx.organization.id), eq(webhookEndpoint.id, id)))
      .returning();
    if (!row) throw notFound();
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "webhook.deleted",
      target: { type: "webhook", id },
      details: { host: endpointLabel(row.url), kind: row.kind },
    });
  });
}

/** A new secret; the old one stops signing at once (the next attempt reads the new one). */
export async function rotateWebhookSecret(ctx: AccountContext, id: string): Promise<WebhookWithSecret> {
  const secret = generateSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoint)
      .set({ secretCiphertext: sealed(ctx, secret), updatedAt: ctx.now() })
      .where(and(eq(webhookEndpoint.organizationId, ctx.organization.id), eq(webhookEndpoint.id, id)))
      .returning();
    if (!updated) throw notFound();
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "webhook.secret_rotated",
      target: { type: "webhook", id },
      details: { host: endpointLabel(updated.url) },
    });
    return updated;
  });
  return { ...webhookView(row), secret };
}
