import type { WebhookKind } from "../../schemas/webhook-kinds";
import type { Channel } from "./channel";
import { slack } from "./slack";
import { standard } from "./standard";

/**
 * The channel registry: one module per webhook kind (reports-and-channels.md "Chat channels"). Keyed by
 * the kind union, so a kind added to lib/schemas/webhook-kinds.ts without its module here is a compile
 * error, never a silent fallback to another kind's body.
 */
export const CHANNELS: { readonly [K in WebhookKind]: Channel<K> } = { standard, slack };

export type { Channel, ReceiverAnswer, UrlMask } from "./channel";
