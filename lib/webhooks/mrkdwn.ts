/**
 * Slack's mrkdwn, made safe for text we do not control. Slack reads `<…>` as a link, a mention
 * (`<!channel>`, `<@U123>`) or a channel; escaping `&`, `<` and `>` (Slack's own rule) turns an anchor
 * text `<!channel>` into the characters a reader sees, never a ping. Our own links are built here too,
 * with the URL made unable to end the `<url|label>` early. Pure.
 */

/** `&`, `<`, `>` as Slack's entities: the text shows as written and can open no link or mention. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

/** At most `max` characters (code points), cut with "…". */
export function clip(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join("")}…`;
}

/**
 * A link `<url|label>`: only for absolute http(s) URLs (anything else is escaped text). The URL is
 * escaped and `|` percent-encoded, so neither can end the link or start another.
 */
export function mrkdwnLink(url: string, label: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return escapeMrkdwn(label);
  return `<${escapeMrkdwn(parsed.href.replace(/\|/g, "%7C"))}|${escapeMrkdwn(label)}>`;
}
