import { WEBHOOK_KIND_INFO } from "../../schemas/webhook-kinds";
import type { WebhookMessage } from "../message";
import { answeredWith2xx } from "../outcome";
import type { Channel, ReceiverAnswer } from "./channel";
import { fitEscaped, linkHref } from "./text";

/**
 * `teams`: a message with one Adaptive Card (version 1.4, which every Teams client renders) for a Teams
 * Workflows webhook or an older incoming webhook (reports-and-channels.md "Chat channels"): a TextBlock
 * with the sentence of the alert email's subject, a FactSet with the page, the link, before → after and
 * when it happened, and an Action.OpenUrl to the monitor. Pure.
 *
 * TextBlocks and fact values are Adaptive Card markdown (bold, italic, lists, `[label](url)` links,
 * `{{DATE(…)}}` functions; Teams mentions need `<at>` and an entity we never send). Page text gets a
 * backslash before each character that can start one of those (CommonMark escapes, which Teams
 * honours), and before a list marker at its start, so it shows as written.
 */

/** Teams refuses a message over 28 KB: values are cut, and facts past it left out (1 KiB kept spare). */
export const TEAMS_MESSAGE_BYTES = 28 * 1024;
export const ADAPTIVE_CARD_VERSION = "1.4";

const VALUE_MAX = 400;
const URL_LABEL_MAX = 250;
const LINKED_URL_MAX = 1500;

/** Backslash escapes for Adaptive Card markdown (and a leading `- `, `+ ` or `1. `, which would start a list). */
export function escapeAdaptiveCard(text: string): string {
  return text
    .replace(/[\\*_[\]()<>~`{}|#&]/g, "\\$&")
    .replace(/^([-+])(?=\s|$)/, "\\$1")
    .replace(/^(\d+)([.)])(?=\s|$)/, "$1\\$2");
}

const text = (value: string, max: number) => fitEscaped(value, max, escapeAdaptiveCard);

function linkValue(url: string): string {
  const href = linkHref(url, "()[]<> ");
  const label = text(url, URL_LABEL_MAX);
  return href && href.length <= LINKED_URL_MAX ? `[${label}](${href})` : label;
}

/** "2026-11-23 11:59 UTC": Teams shows the card's arrival, which a retry can make hours later than the event. */
function when(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? "—" : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

type Fact = { title: string; value: string };
const encoder = new TextEncoder();
const bytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** Before → after facts in order while the message stays within `room` bytes, then a "…" fact for the rest. */
function changeFacts(changes: WebhookMessage["summary"]["changes"], room: number): Fact[] {
  const facts: Fact[] = [];
  let used = 0;
  for (const change of changes) {
    const fact = {
      title: text(change.label, 60),
      value: `${text(change.before || "—", VALUE_MAX)} → ${text(change.after || "—", VALUE_MAX)}`,
    };
    used += bytes(fact) + 1;
    if (used > room) return [...facts, { title: "…", value: "…" }];
    facts.push(fact);
  }
  return facts;
}

export function teamsBody(message: WebhookMessage): string {
  const summary = message.summary;
  const places: Fact[] = [
    ...(summary.pageUrl ? [{ title: "Page", value: linkValue(summary.pageUrl) }] : []),
    ...(summary.target ? [{ title: "Link", value: linkValue(summary.target) }] : []),
  ];
  const whenFact = { title: "When", value: when(message.timestamp) };
  const card = (facts: Fact[]) => ({
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: ADAPTIVE_CARD_VERSION,
    body: [
      { type: "TextBlock", text: text(summary.headline, 500), weight: "Bolder", size: "Medium", wrap: true },
      { type: "FactSet", facts },
    ],
    actions: [{ type: "Action.OpenUrl", title: summary.button.label, url: summary.button.url }],
    msteams: { width: "Full" },
  });
  const envelope = (facts: Fact[]) => ({
    type: "message",
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card(facts) }],
  });
  // Bytes, not characters: Teams counts the request, where an escape or an emoji takes several.
  const room = TEAMS_MESSAGE_BYTES - 1024 - bytes(envelope([...places, whenFact]));
  return JSON.stringify(envelope([...places, ...changeFacts(summary.changes, room), whenFact]));
}

const TEAMS_HOSTS = [".webhook.office.com", ".logic.azure.com", ".environment.api.powerplatform.com"];

/** A Workflows trigger (logic.azure.com, environment.api.powerplatform.com) or an incoming webhook (webhook.office.com). */
function isTeamsWebhook(url: URL): boolean {
  return TEAMS_HOSTS.some((suffix) => url.hostname.endsWith(suffix));
}

/**
 * A 2xx, except the 200 an older incoming webhook (webhook.office.com) answers when Teams itself
 * refused the card: "Webhook message delivery failed with error: …". Workflows answer 202.
 */
export function teamsDelivered(answer: ReceiverAnswer): boolean {
  return answeredWith2xx(answer) && !/^\s*Webhook message delivery failed/i.test(answer.body);
}

export const teams: Channel<"teams"> = {
  kind: "teams",
  info: WEBHOOK_KIND_INFO.teams,
  acceptsUrl: isTeamsWebhook,
  // The whole path of a Workflows URL is its key (…/invoke?…&sig=…), and an incoming webhook's names its team.
  mask: { shown: "masked", publicPath: [] },
  escape: escapeAdaptiveCard,
  body: teamsBody,
  // Teams ignores the Standard Webhooks headers; they give each delivery its webhook-id all the same.
  signed: true,
  delivered: teamsDelivered,
};
