import { ApiError } from "../errors";
import type { WebhookKind } from "../schemas/webhooks";

/**
 * A chat channel's URL is a credential: whoever has it can post into the team's channel
 * (reports-and-channels.md "Chat channels"). It is shown whole only in the answer that creates the
 * endpoint; every later view — reads, PATCH and rotate-secret answers, the app — shows it masked: scheme,
 * host and the path up to the first secret part, then `…` (Slack's `https://hooks.slack.com/services/…`).
 * `standard` URLs are the team's own receivers and stay whole. Emails and the activity log name the host
 * only, whatever the kind (./disable.ts endpointLabel). Pure.
 *
 * One rule per kind, so a later channel (discord: `["api", "webhooks"]`, telegram: `[]`, …) adds one row
 * and a missing row is a compile error.
 */

export type UrlMask = { shown: "whole" } | { shown: "masked"; publicPath: readonly string[] };

export const URL_MASKS: Record<WebhookKind, UrlMask> = {
  standard: { shown: "whole" },
  // hooks.slack.com/services/{team}/{channel}/{secret}: everything after "services" identifies the channel or is its key.
  slack: { shown: "masked", publicPath: ["services"] },
};

export const MASK = "…";

/** `url` as `rule` shows it: whole, or origin + the leading path segments the rule names + "/…". */
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
  return `${parsed.protocol}//${parsed.host}/${kept.map((segment) => `${segment}/`).join("")}${MASK}`;
}

/** How an endpoint's URL is shown after its creation. */
export function maskWebhookUrl(kind: WebhookKind, url: string): string {
  return applyUrlMask(URL_MASKS[kind], url);
}

/** Whether `kind`'s URLs are shown masked. */
export function isMaskedKind(kind: WebhookKind): boolean {
  return URL_MASKS[kind].shown === "masked";
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
