import { Webhook } from "standardwebhooks";
import type { WebhookKind } from "../schemas/webhooks";
import { CHANNELS } from "./channels";
import type { WebhookMessage } from "./message";

/**
 * The request of one attempt (webhooks.md "Delivery"): the body the endpoint's channel renders from the
 * stored message (./channels/), as JSON, and — for a channel that is signed — the Standard Webhooks
 * headers, signed by the maintained `standardwebhooks` library. Pure.
 */

export interface AttemptRequest {
  headers: Record<string, string>;
  body: string;
}

/** The `webhook-id` of a delivery: the same on every attempt. */
export const webhookId = (deliveryId: string) => `msg_${deliveryId}`;

/** Body and headers of one attempt, signed with `secret` (`whsec_…`) at `now`. */
export function attemptRequest(
  kind: WebhookKind,
  message: WebhookMessage,
  secret: string,
  deliveryId: string,
  now: Date,
): AttemptRequest {
  const channel = CHANNELS[kind];
  const body = channel.body(message);
  const headers = { "content-type": "application/json" };
  if (!channel.signed) return { body, headers };
  const id = webhookId(deliveryId);
  return {
    body,
    headers: {
      ...headers,
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, now, body),
    },
  };
}
