import { WEBHOOK_KIND_INFO } from "../../schemas/webhook-kinds";
import type { WebhookMessage } from "../message";
import { answeredWith2xx } from "../outcome";
import type { Channel } from "./channel";
import { fitEscaped, joinWithin, linkHref, lookAlikes } from "./text";

/**
 * `google_chat`: a Google Chat incoming-webhook text message `{ text }` (reports-and-channels.md "Chat
 * channels"): the sentence of the alert email's subject in bold, the page and the link as links, before
 * → after, and a link to the monitor, within Google Chat's 4,096 characters. Pure.
 *
 * Google Chat's text formatting has no escape character: `*bold*`, `_italic_`, `~strike~`, `` `code` ``,
 * `<url|label>` links and `<users/…>` mentions are read wherever their characters appear. So page text
 * shows those characters as look-alikes that no formatter reads (∗ ˍ ∼ ˋ ‹ ›): a reader sees what the
 * page says, and it can neither format, link under other words, nor mention anyone. Google Chat may
 * still make a bare URL in page text clickable, showing that URL itself.
 */

export const GOOGLE_CHAT_TEXT_MAX = 4096;

const VALUE_MAX = 300;
const URL_LABEL_MAX = 200;
const LINKED_URL_MAX = 1000;

/** Google Chat's markup characters as look-alikes: each shows, none formats, links or mentions. */
export function escapeGoogleChat(text: string): string {
  return lookAlikes(text, /[*_~`<>]/g);
}

const text = (value: string, max: number) => fitEscaped(value, max, escapeGoogleChat);

/** A link `<url|label>`: the URL unable to end it; a URL that is not http(s), or too long to link, is text. */
function link(url: string, label: string): string {
  const href = linkHref(url, "|<> ");
  return href && href.length <= LINKED_URL_MAX ? `<${href}|${label}>` : label;
}

export function googleChatBody(message: WebhookMessage): string {
  const summary = message.summary;
  const place = (label: string, url: string) => `*${label}:* ${link(url, text(url, URL_LABEL_MAX))}`;
  const head = [
    `*${text(summary.headline, 500)}*`,
    ...(summary.pageUrl ? [place("Page", summary.pageUrl)] : []),
    ...(summary.target ? [place("Link", summary.target)] : []),
  ];
  const changes = summary.changes.map(
    (change) =>
      `*${text(change.label, 60)}:* ${text(change.before || "—", VALUE_MAX)} → ${text(change.after || "—", VALUE_MAX)}`,
  );
  const tail = [link(summary.button.url, summary.button.label)];
  return JSON.stringify({ text: joinWithin(head, changes, tail, GOOGLE_CHAT_TEXT_MAX) });
}

/** chat.googleapis.com `/v1/spaces/{space}/messages`, with the `key` and `token` Google put in its query. */
function isGoogleChatWebhook(url: URL): boolean {
  return (
    url.hostname === "chat.googleapis.com" &&
    /^\/v1\/spaces\/[^/]+\/messages$/.test(url.pathname) &&
    Boolean(url.searchParams.get("key")) &&
    Boolean(url.searchParams.get("token"))
  );
}

export const googleChat: Channel<"google_chat"> = {
  kind: "google_chat",
  info: WEBHOOK_KIND_INFO.google_chat,
  acceptsUrl: isGoogleChatWebhook,
  // /v1/spaces/{space}/messages?key=…&token=…: the space names the room, the token is the key.
  mask: { shown: "masked", publicPath: ["v1", "spaces"] },
  escape: escapeGoogleChat,
  body: googleChatBody,
  // Google ignores the Standard Webhooks headers; they give each delivery its webhook-id all the same.
  signed: true,
  delivered: answeredWith2xx,
};
