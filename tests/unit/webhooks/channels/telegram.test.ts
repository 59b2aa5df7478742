import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { telegram } from "@/lib/webhooks/channels/telegram";
import { oneLine } from "@/lib/webhooks/channels/text";
import { parseChannelUrl } from "@/lib/webhooks/url";
import { applyUrlMask } from "@/lib/webhooks/url-mask";
import {
  asRequest,
  parseTelegramHtml,
  TELEGRAM_TEXT,
  telegramApi,
  type TelegramHtml,
} from "../../../helpers/chat-receivers";
import { everyMessage, HOSTILE, hostileEverywhere, longestMessage } from "./messages";

/** The `telegram` channel, one table per part (reports-and-channels.md "Chat channels"). */

const ALLOW = ["127.0.0.1:4567"];
const TOKEN = "7000000001:AAHsecretTOKEN-_x";
const PATH = `/bot${TOKEN}/sendMessage`;
const SEND = `https://api.telegram.org${PATH}?chat_id=-1001234567890`;

function urlError(raw: string): ApiError | "ok" {
  try {
    parseChannelUrl(telegram, raw, ALLOW);
    return "ok";
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

interface Body {
  text: string;
  parse_mode: string;
  link_preview_options: { is_disabled: boolean };
}
const bodyOf = (raw: string) => JSON.parse(raw) as Body;
function html(text: string): TelegramHtml {
  const parsed = parseTelegramHtml(text);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}
const withoutJoiners = (text: string) => text.replaceAll("\u2060", "");

describe("telegram: URL rule", () => {
  it.each([
    ["sendMessage to a group", SEND, "ok"],
    ["to a channel by name", `https://api.telegram.org${PATH}?chat_id=@seo_alerts`, "ok"],
    ["to a forum topic", `${SEND}&message_thread_id=7`, "ok"],
    ["a local receiver on the allow list", `http://127.0.0.1:4567/telegram${PATH}?chat_id=42`, "ok"],
    ["no chat_id", `https://api.telegram.org${PATH}`, "INVALID_URL"],
    ["an empty chat_id", `https://api.telegram.org${PATH}?chat_id=`, "INVALID_URL"],
    ["a parse_mode of its own in the query", `${SEND}&parse_mode=MarkdownV2`, "INVALID_URL"],
    ["another method", `https://api.telegram.org/bot${TOKEN}/sendPhoto?chat_id=42`, "INVALID_URL"],
    ["no token", "https://api.telegram.org/bot/sendMessage?chat_id=42", "INVALID_URL"],
    ["another host", `https://telegram.example.com${PATH}?chat_id=42`, "INVALID_URL"],
  ])("%s → %s", (_name, raw, expected) => {
    const outcome = urlError(raw);
    expect(outcome === "ok" ? "ok" : outcome.code).toBe(expected);
  });

  it("another host's INVALID_URL names Telegram and shows the form it expects", () => {
    const error = urlError(`https://hooks.example.com${PATH}?chat_id=42`);
    expect(error).toMatchObject({ code: "INVALID_URL", message: "This is not a Telegram webhook URL." });
    expect((error as ApiError).hint).toBe(
      "A Telegram webhook URL looks like https://api.telegram.org/bot…/sendMessage?chat_id=…",
    );
  });
});

describe("telegram: how its URL is shown after creation (never the bot token or the chat id)", () => {
  it.each([
    [SEND, "https://api.telegram.org/bot…"],
    [`${SEND}&message_thread_id=7`, "https://api.telegram.org/bot…"],
    [`http://127.0.0.1:4567${PATH}?chat_id=42`, "http://127.0.0.1:4567/bot…"],
    [`http://127.0.0.1:4567/telegram${PATH}?chat_id=42`, "http://127.0.0.1:4567/…"],
  ])("%s → %s", (url, shown) => {
    const masked = applyUrlMask(telegram.mask, url);
    expect(masked).toBe(shown);
    expect(masked).not.toContain("7000000001");
    expect(masked).not.toMatch(/42|1001234567890/);
  });
});

describe("telegram: escaping (HTML, and Telegram's own mentions and commands)", () => {
  it.each([
    ['<b>x</b> & <a href="y">', "&lt;b&gt;x&lt;/b&gt; &amp; &lt;a href=&quot;y&quot;&gt;"],
    ["&amp;", "&amp;amp;"],
    ["@admin", "@\u2060admin"],
    ["/start and a/b", "/\u2060start and a/b"],
    ["Schuhe für 🏃", "Schuhe für 🏃"],
  ])("%s → %s", (text, escaped) => {
    expect(telegram.escape(text)).toBe(escaped);
  });
});

describe("telegram: body", () => {
  it.each(everyMessage())(
    "%s: Telegram accepts it (HTML it can parse, 4,096 characters, no preview)",
    (_name, message) => {
      const raw = telegram.body(message);
      const answer = telegramApi(asRequest(raw, PATH, "?chat_id=42"));
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body ?? "{}")).toMatchObject({ ok: true });
      const body = bodyOf(raw);
      expect(body.parse_mode).toBe("HTML");
      expect(body.link_preview_options).toEqual({ is_disabled: true });
      expect(Object.keys(body).sort()).toEqual(["link_preview_options", "parse_mode", "text"]);
    },
  );

  it("says the email's sentence in bold, the page and the link (as links), before → after, and links the monitor", () => {
    expect(bodyOf(telegram.body(hostileEverywhere("Best shoes"))).text).toBe(
      [
        "<b>Anchor text changed: mine.example on Best shoes</b>",
        '<b>Page:</b> <a href="https://blog.example.org/Best%20shoes">https://blog.example.org/Best shoes</a>',
        "<b>Link:</b> mine.example Best shoes",
        "<b>State:</b> live → anchor mismatch",
        "<b>Anchor text:</b> Best shoes → “Best shoes”",
        '<a href="https://linklens.example/app/monitors/mon-1">Open the monitor</a>',
      ].join("\n"),
    );
  });

  it.each(HOSTILE)("page text %j is shown as written: no tag but ours, no mention, no command", (hostile) => {
    const { plain, tags } = html(bodyOf(telegram.body(hostileEverywhere(hostile))).text);
    expect(tags.map((tag) => tag.name).filter((name) => name !== "b")).toEqual(["a", "a"]);
    expect(tags.filter((tag) => tag.name === "a").map((tag) => tag.attributes.href)).toEqual([
      new URL(`https://blog.example.org/${hostile}`).href,
      "https://linklens.example/app/monitors/mon-1",
    ]);
    // An @ or a / that starts a word is followed by the word joiner: Telegram makes no mention or command of it.
    expect(plain).not.toMatch(/@[\w]/);
    expect(plain).not.toMatch(/(?:^|\s)\/[\w]/);
    expect(withoutJoiners(plain)).toContain(`Anchor text: ${oneLine(hostile)} → “${oneLine(hostile)}”`);
  });

  it("the longest message is cut with … within 4,096 characters (before and after Telegram reads the HTML)", () => {
    const text = bodyOf(telegram.body(longestMessage())).text;
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT);
    expect(html(text).plain.length).toBeLessThanOrEqual(TELEGRAM_TEXT);
    expect(text.split("\n").at(-2)).toBe("…");
  });
});

describe('telegram: success rule (a 200 whose body says "ok": true)', () => {
  const echoed = `{"ok":true,"result":{"message_id":1,"text":"${"x".repeat(2000)}`.slice(0, 1024);
  it.each([
    ["ok", 200, '{"ok":true,"result":{"message_id":1}}', true],
    ["ok, with spaces", 200, '{ "ok" : true, "result": {} }', true],
    ["ok, the answer cut at 1 KiB", 200, echoed, true],
    ["ok last in a whole answer", 200, '{"result":{},"ok":true}', true],
    ["ok: false at 200", 200, '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}', false],
    ["not JSON", 200, "ok", false],
    ["empty", 200, "", false],
    ["ok as a string", 200, '{"ok":"true"}', false],
    ["another 2xx", 204, '{"ok":true}', false],
    ["a refusal", 400, '{"ok":false,"error_code":400,"description":"Bad Request: message is too long"}', false],
    ["a bad token", 401, '{"ok":false,"error_code":401,"description":"Unauthorized"}', false],
    ["too many", 429, '{"ok":false,"error_code":429,"parameters":{"retry_after":5}}', false],
    ["a cut answer that does not start with ok", 200, `{"result":{"text":"${"x".repeat(2000)}`.slice(0, 1024), false],
  ])("%s (HTTP %i) → delivered %s", (_name, status, body, delivered) => {
    expect(telegram.delivered({ status, body })).toBe(delivered);
  });
});
