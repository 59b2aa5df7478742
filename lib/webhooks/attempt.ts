import { and, eq, sql } from "drizzle-orm";
import { fetchPublic, type FetchPublicOptions } from "../analyzer";
import type { Runtime } from "../db/runtime";
import { webhookDelivery, webhookEndpoint } from "../db/schema";
import { resolveAuthSecret } from "../db/secret";
import { log } from "../log";
import type { WebhookKind } from "../schemas/webhooks";
import { CHANNELS } from "./channels";
import { DISABLED_ERROR, disableFailingEndpoint, oneMoreFailure } from "./disable";
import { asMessage } from "./message";
import { ATTEMPT_TIMEOUT_MS, attemptResult, RESPONSE_BODY_BYTES, type AttemptResult } from "./outcome";
import { attemptRequest } from "./request";
import { afterFailure } from "./schedule";
import { openSecret, UnreadableSecretError } from "./secret";
import { isMaskedKind, maskWebhookUrl } from "./url-mask";

/**
 * One attempt of one delivery, already claimed (status `sending`, its attempt counted): sign, send
 * through the analyzer's front door (the network guard at connect time, so a host that now resolves to
 * a private address gets nothing; no redirects; 10 s; 1 KiB of the answer), then record the outcome and
 * what follows it in one transaction, on the condition that the claim is still ours.
 */

export interface WebhookDeps extends Runtime {
  /** Tests: a resolver for fetchPublic (the guard still applies). */
  resolver?: FetchPublicOptions["resolver"];
  /** Tests: a shorter deadline than webhooks.md's 10 s. */
  timeoutMs?: number;
}

/** `scheduled`: the sender's; `manual`: a person's retry; `ping`: a test, never retried. */
export type AttemptMode = "scheduled" | "manual" | "ping";

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  type: string;
  payload: Record<string, unknown>;
  /** Attempts made, this one included (the claim counted it). */
  attempts: number;
  createdAt: Date;
  /** The status before the claim: a manual retry of a `failed` delivery stays failed if it fails again. */
  previousStatus: "pending" | "sending" | "failed" | "delivered";
  endpoint: { url: string; kind: WebhookKind; secretCiphertext: string };
}

export const USER_AGENT = "LinkLens-Webhooks/1.0 (+https://linklens.dev/docs)";

async function send(deps: WebhookDeps, delivery: ClaimedDelivery, now: Date): Promise<AttemptResult> {
  const timeoutMs = deps.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  try {
    const secret = openSecret(delivery.endpoint.secretCiphertext, resolveAuthSecret(deps.settings));
    const request = attemptRequest(delivery.endpoint.kind, asMessage(delivery.payload), secret, delivery.id, now);
    const outcome = await fetchPublic(new URL(delivery.endpoint.url), {
      settings: deps.settings,
      method: "POST",
      headers: { ...request.headers, "user-agent": USER_AGENT },
      body: request.body,
      maxRedirects: 0,
      timeoutMs,
      maxBodyBytes: RESPONSE_BODY_BYTES,
      resolver: deps.resolver,
    });
    const result = attemptResult(outcome, timeoutMs, CHANNELS[delivery.endpoint.kind].delivered);
    return withoutEndpointUrl(result, delivery.endpoint);
  } catch (error) {
    if (error instanceof UnreadableSecretError)
      return { ok: false, responseStatus: null, responseBody: null, error: error.message };
    log.warn({ err: error, deliveryId: delivery.id }, "webhook attempt failed before sending");
    return {
      ok: false,
      responseStatus: null,
      responseBody: null,
      error: "LinkLens could not send this delivery (an error on our side); it is retried.",
    };
  }
}

/**
 * A delivery's error is shown to every viewer: for a chat kind it never repeats the endpoint's URL or its
 * path (a redirect's Location may), which are credentials (./url-mask.ts).
 */
function withoutEndpointUrl(result: AttemptResult, endpoint: ClaimedDelivery["endpoint"]): AttemptResult {
  const url = URL.parse(endpoint.url);
  if (!result.error || !url || !isMaskedKind(endpoint.kind)) return result;
  const masked = maskWebhookUrl(endpoint.kind, endpoint.url);
  const maskedPath = masked.slice(url.origin.length);
  let error = result.error.replaceAll(endpoint.url, masked);
  if (url.pathname.length > 1) error = error.replaceAll(url.pathname, maskedPath);
  return { ...result, error };
}

/** Sends one claimed delivery and records the outcome; answers the outcome. */
export async function runAttempt(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  mode: AttemptMode,
): Promise<AttemptResult> {
  const result = await send(deps, delivery, deps.now());
  await recordAttempt(deps, delivery, mode, result);
  return result;
}

/** A success: the delivery is done and the endpoint's failures reset, in one statement (the common case of a backlog). */
async function recordSuccess(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  mode: AttemptMode,
  result: AttemptResult,
  now: Date,
): Promise<void> {
  const counters =
    mode === "ping" ? sql`` : sql`, consecutive_failures = 0, last_success_at = ${now.toISOString()}::timestamptz`;
  await deps.db.execute(sql`
    WITH done AS (
      UPDATE ${webhookDelivery} SET status = 'delivered', delivered_at = ${now.toISOString()}::timestamptz, lease_until = NULL, error = NULL,
        response_status = ${result.responseStatus}, response_body = ${result.responseBody}
      WHERE id = ${delivery.id} AND status = 'sending' AND attempts = ${delivery.attempts}
      RETURNING endpoint_id
    )
    UPDATE ${webhookEndpoint} SET last_delivery_at = ${now.toISOString()}::timestamptz, last_status = ${result.responseStatus}${counters}
    WHERE id IN (SELECT endpoint_id FROM done)`);
}

async function recordAttempt(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  mode: AttemptMode,
  result: AttemptResult,
): Promise<void> {
  const now = deps.now();
  if (result.ok) return recordSuccess(deps, delivery, mode, result, now);
  await deps.db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select({ enabled: webhookEndpoint.enabled, lastSuccessAt: webhookEndpoint.lastSuccessAt })
      .from(webhookEndpoint)
      .where(eq(webhookEndpoint.id, delivery.endpointId));
    if (!endpoint) return; // deleted meanwhile: its deliveries went with it
    let next: { status: "pending" | "failed"; nextAttemptAt?: Date };
    let exhausted = false;
    if (mode === "ping" || (mode === "manual" && delivery.previousStatus === "failed") || !endpoint.enabled)
      next = { status: "failed" };
    else {
      const after = afterFailure(delivery.attempts, deps.settings.WEBHOOK_RETRY_BASE_SECONDS, now);
      exhausted = after.status === "failed";
      next = after;
    }
    const error =
      !endpoint.enabled && mode !== "ping" ? `${result.error ?? ""} ${DISABLED_ERROR}`.trim() : result.error;
    const mine = and(
      eq(webhookDelivery.id, delivery.id),
      eq(webhookDelivery.status, "sending"),
      eq(webhookDelivery.attempts, delivery.attempts),
    );
    const updated = await tx
      .update(webhookDelivery)
      .set({
        ...next,
        error,
        responseStatus: result.responseStatus,
        responseBody: result.responseBody,
        leaseUntil: null,
      })
      .where(mine)
      .returning({ id: webhookDelivery.id });
    // Another sender took the claim over (our lease ran out): its attempt is the one that counts.
    if (updated.length === 0) return;
    await tx
      .update(webhookEndpoint)
      .set({
        lastDeliveryAt: now,
        lastStatus: result.responseStatus,
        ...(mode === "ping" ? {} : { consecutiveFailures: oneMoreFailure }),
      })
      .where(eq(webhookEndpoint.id, delivery.endpointId));
    const succeededSince = endpoint.lastSuccessAt !== null && endpoint.lastSuccessAt >= delivery.createdAt;
    if (exhausted && !succeededSince) {
      await disableFailingEndpoint(tx, {
        endpointId: delivery.endpointId,
        attempts: delivery.attempts,
        lastError: result.error,
        now,
        settings: deps.settings,
      });
    }
  });
}
