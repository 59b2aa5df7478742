import { WEBHOOK_KIND_INFO } from "../../schemas/webhook-kinds";
import type { WebhookMessage } from "../message";
import { answeredWith2xx } from "../outcome";
import type { Channel } from "./channel";
import { fitEscaped, joinWithin, linkHref } from "./text";

/**
 * `discord`: a Discord webhook message (reports-and-channels.md "Chat channels") — `content` is the
 * sentence of the alert email's subject; one embed titled with a link to the monitor holds before →
 * after in its description and the page and the link as fields; the event's time is the embed's own
 * timestamp. Pure.
 *
 * Discord's markdown, made safe for text we do not control: every ASCII punctuation character of page
 * text gets a backslash (Discord's parser reads a backslash before any non-alphanumeric character as
 * "this character, as text"), so `**`, `__`, `||`, `# `, `-# `, `> `, `[label](url)`, `<@id>`, `<#id>`,
 * `<t:…>`, `@everyone` and `https://` show as the characters written — no formatting, no masked link,
 * no mention, no link Discord would make of a bare URL. `allowed_mentions: { parse: [] }` is the
 * second lock: even a mention that got through would notify nobody.
 */

/** Discord's documented limits (Execute Webhook; Embed limits). */
export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  embed: 6000,
} as const;

/** Cuts below the limits: a value, a URL's label, and the longest URL still linked (longer ones are shown as text). */
const VALUE_MAX = 400;
const URL_LABEL_MAX = 250;
const LINKED_URL_MAX = 550;

/** A backslash before every ASCII punctuation character: each shows as written. */
export function escapeDiscord(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

const text = (value: string, max: number) => fitEscaped(value, max, escapeDiscord);

/**
 * A masked link `[label](url)`, the URL unable to close it; a URL that is not http(s), or too long to
 * link, is text. At most 4 + 250 + 550 characters: two fields and the description stay within 6,000.
 */
function linkValue(url: string): string {
  const href = linkHref(url, "()[]<> ");
  const label = text(url, URL_LABEL_MAX);
  return href && href.length <= LINKED_URL_MAX ? `[${label}](${href})` : label;
}

function changeLine(change: { label: string; before: string; after: string }): string {
  return `**${text(change.label, 60)}:** ${text(change.before || "—", VALUE_MAX)} → ${text(change.after || "—", VALUE_MAX)}`;
}

export function discordBody(message: WebhookMessage): string {
  const summary = message.summary;
  const fields = [
    summary.pageUrl ? { name: "Page", value: linkValue(summary.pageUrl) } : null,
    summary.target ? { name: "Link", value: linkValue(summary.target) } : null,
  ].filter((field) => field !== null);
  const description = joinWithin([], summary.changes.map(changeLine), [], DISCORD_LIMITS.description);
  const embed = {
    title: text(summary.button.label, 100),
    url: summary.button.url,
    ...(description ? { description } : {}),
    ...(fields.length > 0 ? { fields } : {}),
    timestamp: message.timestamp,
  };
  return JSON.stringify({
    content: text(summary.headline, DISCORD_LIMITS.content),
    embeds: [embed],
    allowed_mentions: { parse: [] },
  });
}

/** discord.com or discordapp.com, `/api/webhooks/{id}/{token}` (a query, such as `thread_id`, may follow). */
function isDiscordWebhook(url: URL): boolean {
  return (
    (url.hostname === "discord.com" || url.hostname === "discordapp.com") &&
    /^\/api\/webhooks\/\d+\/[\w-]+\/?$/.test(url.pathname)
  );
}

export const discord: Channel<"discord"> = {
  kind: "discord",
  info: WEBHOOK_KIND_INFO.discord,
  acceptsUrl: isDiscordWebhook,
  // /api/webhooks/{id}/{token}: the id names the channel's webhook, the token is its key.
  mask: { shown: "masked", publicPath: ["api", "webhooks"] },
  escape: escapeDiscord,
  body: discordBody,
  // Discord ignores the Standard Webhooks headers; they give each delivery its webhook-id all the same.
  signed: true,
  // 204 (or 200 with ?wait=true).
  delivered: answeredWith2xx,
};
