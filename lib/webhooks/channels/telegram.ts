import { WEBHOOK_KIND_INFO } from "../../schemas/webhook-kinds";
import type { WebhookMessage } from "../message";
import type { Channel, ReceiverAnswer } from "./channel";
import { fitEscaped, joinWithin, linkHref } from "./text";

/**
 * `telegram`: the Bot API's sendMessage (reports-and-channels.md "Chat channels"), posted to
 * `https://api.telegram.org/bot{token}/sendMessage?chat_id={id}` with `{ text, parse_mode: "HTML",
 * link_preview_options: { is_disabled: true } }`: the sentence of the alert email's subject in bold, the
 * page and the link as links, before → after, and a link to the monitor, within 4,096 characters. Pure.
 *
 * Telegram's HTML: page text has `&`, `<`, `>` and `"` as entities, so the only tags are the ones built
 * here (`<b>`, `<a href>`). Telegram also makes entities of its own from plain text: an `@username`
 * notifies that member, a `/command` starting a word sends itself when tapped. A word joiner (U+2060,
 * invisible) after such an `@` or `/` keeps both as text.
 */

export const TELEGRAM_TEXT_MAX = 4096;

const VALUE_MAX = 300;
const URL_LABEL_MAX = 200;
const LINKED_URL_MAX = 1000;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const WORD_JOINER = "\u2060";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => ENTITIES[character] ?? character);
}

/** Page text as Telegram HTML text: entities for markup, a word joiner after a mention's `@` or a command's `/`. */
export function escapeTelegramHtml(text: string): string {
  return escapeHtml(text)
    .replace(/@/g, `@${WORD_JOINER}`)
    .replace(/(^|\s)\/(?=\w)/g, `$1/${WORD_JOINER}`);
}

const text = (value: string, max: number) => fitEscaped(value, max, escapeTelegramHtml);

/** `<a href="url">label</a>` for an http(s) URL short enough to link; anything else is the label alone. */
function link(url: string, label: string): string {
  const href = linkHref(url, "");
  return href && href.length <= LINKED_URL_MAX ? `<a href="${escapeHtml(href)}">${label}</a>` : label;
}

/**
 * The text counts for Telegram after its HTML is read (tags gone, entities one character each); this
 * keeps the HTML itself within 4,096, which is never more.
 */
export function telegramText(message: WebhookMessage): string {
  const summary = message.summary;
  const place = (label: string, url: string) => `<b>${label}:</b> ${link(url, text(url, URL_LABEL_MAX))}`;
  const head = [
    `<b>${text(summary.headline, 500)}</b>`,
    ...(summary.pageUrl ? [place("Page", summary.pageUrl)] : []),
    ...(summary.target ? [place("Link", summary.target)] : []),
  ];
  const changes = summary.changes.map(
    (change) =>
      `<b>${text(change.label, 60)}:</b> ${text(change.before || "—", VALUE_MAX)} → ${text(change.after || "—", VALUE_MAX)}`,
  );
  const tail = [link(summary.button.url, escapeHtml(summary.button.label))];
  return joinWithin(head, changes, tail, TELEGRAM_TEXT_MAX);
}

export function telegramBody(message: WebhookMessage): string {
  return JSON.stringify({
    text: telegramText(message),
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  });
}

/** api.telegram.org `/bot{token}/sendMessage` with `chat_id` (and, for a forum topic, `message_thread_id`) in the query. */
function isTelegramSendMessage(url: URL): boolean {
  const names = [...url.searchParams.keys()];
  return (
    url.hostname === "api.telegram.org" &&
    /^\/bot\d+:[\w-]+\/sendMessage$/.test(url.pathname) &&
    Boolean(url.searchParams.get("chat_id")) &&
    // Other parameters in the query (a parse_mode of its own…) could change what the body asks for.
    names.every((name) => name === "chat_id" || name === "message_thread_id")
  );
}

/**
 * The Bot API answers `{"ok":true,"result":…}` with 200, and `{"ok":false,"error_code":…,"description":…}`
 * otherwise. Only the first 1 KiB of the answer is read, and a success echoes the whole message, so a
 * cut answer counts by its leading `"ok":true` (the Bot API always writes `ok` first).
 */
export function telegramDelivered(answer: ReceiverAnswer): boolean {
  if (answer.status !== 200) return false;
  try {
    const parsed: unknown = JSON.parse(answer.body);
    return typeof parsed === "object" && parsed !== null && (parsed as { ok?: unknown }).ok === true;
  } catch {
    return /^\s*\{\s*"ok"\s*:\s*true\s*[,}]/.test(answer.body);
  }
}

export const telegram: Channel<"telegram"> = {
  kind: "telegram",
  info: WEBHOOK_KIND_INFO.telegram,
  acceptsUrl: isTelegramSendMessage,
  // /bot{token}/sendMessage?chat_id={id}: the token is the bot's key; nothing after `bot` is shown.
  mask: { shown: "masked", publicPath: [], publicPrefix: "bot" },
  escape: escapeTelegramHtml,
  body: telegramBody,
  // Telegram ignores the Standard Webhooks headers; they give each delivery its webhook-id all the same.
  signed: true,
  delivered: telegramDelivered,
};
