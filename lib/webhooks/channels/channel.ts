import type { WebhookKind, WebhookKindInfo } from "../../schemas/webhook-kinds";
import type { WebhookMessage } from "../message";

/**
 * What a webhook kind is made of: one module per kind in this folder fills every part, and the registry
 * (./index.ts) holds one per kind, so a kind without a channel, or a channel without a part, does not
 * compile. Everything that differs between kinds is here; what they share (the common URL rule, the
 * outbox, retries, disabling, the network guard) is not. Pure.
 */

/**
 * How a kind's URL is shown after the endpoint's creation (../url-mask.ts): whole, or masked after the
 * leading path segments `publicPath` names (the ones that identify no channel and hold no key), and —
 * when the next segment starts with `publicPrefix` — that fixed start of it (Telegram's `bot` before
 * its token).
 */
export type UrlMask = { shown: "whole" } | { shown: "masked"; publicPath: readonly string[]; publicPrefix?: string };

/** What the receiver answered: its status and the start of its body (../outcome.ts keeps 1 KiB). */
export interface ReceiverAnswer {
  status: number;
  body: string;
}

export interface Channel<K extends WebhookKind = WebhookKind> {
  kind: K;
  /** The label and URL form the app shows (lib/schemas/webhook-kinds.ts, importable by the browser). */
  info: WebhookKindInfo;
  /**
   * Whether this kind can post to `url`, once it passed the rule every kind shares (../url.ts: https, the
   * analyzer's policy). A URL refused here is 400 INVALID_URL with `info.urlHint` as the expected form.
   */
  acceptsUrl: (url: URL) => boolean;
  mask: UrlMask;
  /** Page text (anchors, titles, names, URLs shown as text) in this kind's format: data, never markup or a mention. */
  escape: (text: string) => string;
  /** The body of every attempt of a delivery, rendered from its stored message. */
  body: (message: WebhookMessage) => string;
  /** Whether attempts carry the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
  signed: boolean;
  /** Whether an answer within the deadline means the message was taken (../outcome.ts `answeredWith2xx`). */
  delivered: (answer: ReceiverAnswer) => boolean;
}
