import { WEBHOOK_KIND_INFO } from "../../schemas/webhook-kinds";
import type { WebhookMessage } from "../message";
import { answeredWith2xx } from "../outcome";
import type { Channel } from "./channel";

/**
 * `standard`: the team's own receiver, signed JSON `{ type, timestamp, data }` under the Standard
 * Webhooks headers (webhooks.md "Delivery"). Page text travels as JSON strings, which are data to any
 * JSON parser, so nothing is escaped beyond what JSON.stringify does. Pure.
 */

export function standardBody(message: WebhookMessage): string {
  return JSON.stringify({ type: message.type, timestamp: message.timestamp, data: message.data });
}

export const standard: Channel<"standard"> = {
  kind: "standard",
  info: WEBHOOK_KIND_INFO.standard,
  // Any URL the shared rule accepts: the receiver is the team's own, wherever they run it.
  acceptsUrl: () => true,
  // The team's own receiver: its URL is theirs to see (a secret in it is their choice).
  mask: { shown: "whole" },
  escape: (text) => text,
  body: standardBody,
  signed: true,
  delivered: answeredWith2xx,
};
