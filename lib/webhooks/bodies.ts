import { Webhook } from "standardwebhooks";
import type { WebhookKind } from "../schemas/webhooks";
import type { WebhookMessage } from "./message";
import { clip, escapeMrkdwn, mrkdwnLink } from "./mrkdwn";

/**
 * The request of one attempt (webhooks.md "Delivery"). `standard`: the JSON body `{ type, timestamp,
 * data }`. `slack`: an incoming-webhook body `{ text, blocks }` whose page content is escaped mrkdwn in
 * `verbatim` text objects (Slack then neither links nor mentions anything on its own). Both carry the
 * Standard Webhooks headers, signed by the maintained `standardwebhooks` library: a relay in front of
 * Slack can verify them too, and Slack ignores them. Pure.
 */

/** Slack's caps: 3,000 characters a section text, 2,000 a field; anchors and URLs are cut well below. */
const VALUE_MAX = 300;
const URL_LABEL_MAX = 150;
/** A longer URL is shown (cut) without a link: a field holds 2,000 characters. */
const LINKED_URL_MAX = 1500;

export function standardBody(message: WebhookMessage): string {
  return JSON.stringify({ type: message.type, timestamp: message.timestamp, data: message.data });
}

type Block = Record<string, unknown>;
const mrkdwn = (text: string) => ({ type: "mrkdwn", text, verbatim: true });

function place(label: string, value: string): string {
  const shown = clip(value, URL_LABEL_MAX);
  return `*${label}*\n${value.length > LINKED_URL_MAX ? escapeMrkdwn(shown) : mrkdwnLink(value, shown)}`;
}

export function slackBody(message: WebhookMessage): string {
  const summary = message.slack;
  const headline = escapeMrkdwn(clip(summary.headline, VALUE_MAX));
  const blocks: Block[] = [{ type: "section", text: mrkdwn(`*${headline}*`) }];
  const fields = [
    summary.pageUrl ? place("Page", summary.pageUrl) : null,
    summary.target ? place("Link", summary.target) : null,
  ].filter((field): field is string => field !== null);
  if (fields.length > 0) blocks.push({ type: "section", fields: fields.map(mrkdwn) });
  if (summary.changes.length > 0) {
    const lines = summary.changes.map(
      (change) =>
        `*${escapeMrkdwn(clip(change.label, 60))}:* ${escapeMrkdwn(clip(change.before || "—", VALUE_MAX))} → ${escapeMrkdwn(clip(change.after || "—", VALUE_MAX))}`,
    );
    blocks.push({ type: "section", text: mrkdwn(lines.join("\n")) });
  }
  blocks.push({
    type: "actions",
    elements: [{ type: "button", text: { type: "plain_text", text: summary.button.label }, url: summary.button.url }],
  });
  return JSON.stringify({ text: headline, blocks, unfurl_links: false, unfurl_media: false });
}

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
  const body = kind === "slack" ? slackBody(message) : standardBody(message);
  const id = webhookId(deliveryId);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, now, body),
    },
  };
}
