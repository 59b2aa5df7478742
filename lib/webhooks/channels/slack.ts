import { WEBHOOK_KIND_INFO } from "../../schemas/webhook-kinds";
import type { WebhookMessage } from "../message";
import { answeredWith2xx } from "../outcome";
import type { Channel } from "./channel";
import { clip } from "./clip";
import { lookAlikes } from "./text";

/**
 * `slack`: a Slack incoming-webhook message `{ text, blocks }` (webhooks.md "Delivery"), the sentence of
 * the alert email's subject, the page, the link, before → after and a button to the monitor. Pure.
 *
 * Slack's mrkdwn, made safe for text we do not control: Slack reads `<…>` as a link, a mention
 * (`<!channel>`, `<@U123>`) or a channel; escaping `&`, `<` and `>` (Slack's own rule) turns an anchor
 * text `<!channel>` into the characters a reader sees, never a ping. `*`, `_`, `~` and `` ` `` format
 * (bold, italic, strike, code) and mrkdwn has no escape for them, so page text shows them as look-alikes
 * (reports-and-channels.md: page text is data, never markup). Every text object is `verbatim`, so Slack
 * neither links nor mentions anything on its own; our own links are built here, with the URL made unable
 * to end the `<url|label>` early.
 */

/** `&`, `<`, `>` as Slack's entities: inside our own `<url|…>` the URL stays a working address. */
function mrkdwnEntities(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

/** Page text for mrkdwn: shown as written, it can open no link or mention and format nothing. */
export function escapeMrkdwn(text: string): string {
  return lookAlikes(mrkdwnEntities(text), /[*_~`]/g);
}

/**
 * A link `<url|label>`: only for absolute http(s) URLs (anything else is escaped text). The URL is
 * escaped and `|` percent-encoded, so neither can end the link or start another.
 */
export function mrkdwnLink(url: string, label: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return escapeMrkdwn(label);
  return `<${mrkdwnEntities(parsed.href.replace(/\|/g, "%7C"))}|${escapeMrkdwn(label)}>`;
}

/** Slack's caps: 3,000 characters a section text, 2,000 a field; anchors and URLs are cut well below. */
const VALUE_MAX = 300;
const URL_LABEL_MAX = 150;
/** A longer URL is shown (cut) without a link: a field holds 2,000 characters. */
const LINKED_URL_MAX = 1500;

type Block = Record<string, unknown>;
const mrkdwn = (text: string) => ({ type: "mrkdwn", text, verbatim: true });

function place(label: string, value: string): string {
  const shown = clip(value, URL_LABEL_MAX);
  return `*${label}*\n${value.length > LINKED_URL_MAX ? escapeMrkdwn(shown) : mrkdwnLink(value, shown)}`;
}

export function slackBody(message: WebhookMessage): string {
  const summary = message.summary;
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

/**
 * hooks.slack.com `/services/…` only (reports-and-channels.md). Endpoints saved before this rule with
 * another host (a relay) keep their URL and their deliveries; only a new URL must meet it.
 */
function isSlackIncomingWebhook(url: URL): boolean {
  return url.hostname === "hooks.slack.com" && /^\/services\/[^/]/.test(url.pathname);
}

export const slack: Channel<"slack"> = {
  kind: "slack",
  info: WEBHOOK_KIND_INFO.slack,
  acceptsUrl: isSlackIncomingWebhook,
  // hooks.slack.com/services/{team}/{channel}/{secret}: everything after "services" identifies the channel or is its key.
  mask: { shown: "masked", publicPath: ["services"] },
  escape: escapeMrkdwn,
  body: slackBody,
  // Slack ignores the Standard Webhooks headers; a relay in front of it can verify them.
  signed: true,
  delivered: answeredWith2xx,
};
