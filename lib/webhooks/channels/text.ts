import { clip } from "./clip";

/**
 * Page text made to fit a chat message: on one line, escaped for the chat's format, cut to its limits.
 * Lengths are counted in UTF-16 code units, the strictest way any of the chats counts them (an emoji
 * is two), so a text that fits here fits there. Pure.
 */

/** Line breaks and other control characters as spaces: a break in an anchor could start a heading, a list or a quote. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ");
}

/**
 * `text` on one line, escaped by `escape`, cut with "…" before escaping so that the escaped text is at
 * most `max` code units: a cut never falls inside an escape (a lone `\` or half of `&amp;`).
 */
export function fitEscaped(text: string, max: number, escape: (text: string) => string): string {
  const line = oneLine(text);
  let keep = Math.min([...line].length, max);
  for (;;) {
    const escaped = escape(clip(line, keep));
    if (escaped.length <= max || keep <= 1) return escaped;
    // An escape is at most 8 units long: cutting the overflow / 8 characters never cuts more than needed.
    keep -= Math.max(1, Math.ceil((escaped.length - max) / 8));
  }
}

/**
 * Lines joined by "\n" within `max` code units: `head` and `tail` always (their parts are cut short by
 * the caller), then as many of `middle` as fit, in order, with a last "…" line when some did not.
 */
export function joinWithin(head: string[], middle: string[], tail: string[], max: number): string {
  const fixed = [...head, ...tail];
  let used = fixed.reduce((sum, line) => sum + line.length + 1, 0);
  const kept: string[] = [];
  for (const [index, line] of middle.entries()) {
    const last = index === middle.length - 1;
    // Room for this line, and for the "…" line unless it is the last.
    if (used + line.length + (last ? 0 : 2) > max) {
      // Room for the "…" line was kept by the line before (and is there unless head and tail fill it all).
      if (used + 1 <= max) kept.push("…");
      break;
    }
    kept.push(line);
    used += line.length + 1;
  }
  return [...head, ...kept, ...tail].join("\n");
}

/**
 * `url` as an absolute http(s) address with the `reserved` characters (a format's link delimiters)
 * percent-encoded, so it can neither end our link early nor start another; null for anything else,
 * which a channel shows as text and never links.
 */
export function linkHref(url: string, reserved: string): string | null {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return null;
  let href = parsed.href;
  for (const character of reserved)
    href = href.replaceAll(character, `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  return href;
}

/**
 * Markup characters that a chat's format has no escape for, as characters that look the same and format
 * nothing: `*` bold, `_` italic, `~` strike, `` ` `` code, `<` `>` links and mentions. Slack's mrkdwn and
 * Google Chat both read these and neither has a backslash escape, so a reader sees the page's text as
 * written (nearly: ∗ ˍ ∼ ˋ ‹ ›) and nothing in it can bold, link or mention.
 */
const LOOK_ALIKES: Record<string, string> = {
  "*": "\u2217",
  _: "\u02cd",
  "~": "\u223c",
  "`": "\u02cb",
  "<": "\u2039",
  ">": "\u203a",
};

/** Every character of `characters` in `text` replaced by its look-alike. */
export function lookAlikes(text: string, characters: RegExp): string {
  return text.replace(characters, (character) => LOOK_ALIKES[character] ?? character);
}
