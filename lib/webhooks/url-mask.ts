import { ApiError } from "../errors";
import { WEBHOOK_KINDS, type WebhookKind } from "../schemas/webhooks";
import { CHANNELS, type UrlMask } from "./channels";

/**
 * A chat channel's URL is a credential: whoever has it can post into the team's channel
 * (reports-and-channels.md "Chat channels"). It is shown whole only in the answer that creates the
 * endpoint; every later view — reads, PATCH and rotate-secret answers, the app — shows it masked: scheme,
 * host and the path up to the first secret part, then `…` (Slack's `https://hooks.slack.com/services/…`).
 * `standard` URLs are the team's own receivers and stay whole. Emails and the activity log name the host
 * only, whatever the kind (./disable.ts endpointLabel). Pure.
 *
 * Each channel module names its rule (`mask`, ./channels/).
 */

export type { UrlMask } from "./channels";

/** Every kind's rule, as its channel names it. */
export const URL_MASKS = Object.fromEntries(WEBHOOK_KINDS.map((kind) => [kind, CHANNELS[kind].mask])) as Record<
  WebhookKind,
  UrlMask
>;

export const MASK = "…";

/**
 * `url` as `rule` shows it: whole, or origin + the leading path segments the rule names (+ the public
 * start of the next one) + "…". A path that leaves the rule early shows only what matched.
 */
export function applyUrlMask(rule: UrlMask, url: string): string {
  if (rule.shown === "whole") return url;
  const parsed = URL.parse(url);
  if (!parsed) return MASK;
  const segments = parsed.pathname.split("/").slice(1);
  const kept: string[] = [];
  for (const [index, name] of rule.publicPath.entries()) {
    if (segments[index] !== name) break;
    kept.push(name);
  }
  const next = segments[kept.length] ?? "";
  const prefix =
    rule.publicPrefix && kept.length === rule.publicPath.length && next.startsWith(rule.publicPrefix)
      ? rule.publicPrefix
      : "";
  return `${parsed.protocol}//${parsed.host}/${kept.map((segment) => `${segment}/`).join("")}${prefix}${MASK}`;
}

/** How an endpoint's URL is shown after its creation. */
export function maskWebhookUrl(kind: WebhookKind, url: string): string {
  return applyUrlMask(CHANNELS[kind].mask, url);
}

/** Whether `kind`'s URLs are shown masked. */
export function isMaskedKind(kind: WebhookKind): boolean {
  return CHANNELS[kind].mask.shown === "masked";
}

/** Whether a PATCH sent back the stored URL's masked form: a client that read the endpoint and sends it whole again changes nothing. */
export function isMaskEcho(kind: WebhookKind, sent: string, stored: string): boolean {
  return isMaskedKind(kind) && sent === maskWebhookUrl(kind, stored);
}

/**
 * Any other chat URL that holds the mask (`…`, as text or percent-encoded) is a masked URL pasted in place
 * of the real one: 400 INVALID_URL, never stored.
 */
export function refuseMaskedUrl(kind: WebhookKind, sent: string): void {
  if (isMaskedKind(kind) && (sent.includes(MASK) || /%E2%80%A6/i.test(sent))) {
    throw new ApiError(
      "INVALID_URL",
      "This URL is masked: LinkLens shows a chat URL whole only once, when the webhook is created.",
      {
        hint: "Paste the whole URL your chat app gave you, or leave url out to keep the stored one.",
      },
    );
  }
}
