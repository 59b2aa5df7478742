import type { WebhookKind } from "../../schemas/webhook-kinds";
import type { Channel } from "./channel";
import { discord } from "./discord";
import { googleChat } from "./google-chat";
import { slack } from "./slack";
import { standard } from "./standard";
import { teams } from "./teams";
import { telegram } from "./telegram";

/**
 * The channel registry: one module per webhook kind (reports-and-channels.md "Chat channels"). Keyed by
 * the kind union, so a kind added to lib/schemas/webhook-kinds.ts without its module here is a compile
 * error, never a silent fallback to another kind's body.
 */
export const CHANNELS: { readonly [K in WebhookKind]: Channel<K> } = {
  standard,
  slack,
  discord,
  teams,
  google_chat: googleChat,
  telegram,
};

export type { Channel, ReceiverAnswer, UrlMask } from "./channel";
