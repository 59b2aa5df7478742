import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { googleChat } from "@/lib/webhooks/channels/google-chat";
import { oneLine } from "@/lib/webhooks/channels/text";
import { pingMessage } from "@/lib/webhooks/message";
import { parseChannelUrl } from "@/lib/webhooks/url";
import { applyUrlMask } from "@/lib/webhooks/url-mask";
import { asRequest, GOOGLE_CHAT_TEXT, googleChatApi } from "../../../helpers/chat-receivers";
import { at, everyMessage, HOSTILE, hostileEverywhere, longestMessage, organization } from "./messages";

/** The `google_chat` channel, one table per part (reports-and-channels.md "Chat channels"). */

const ALLOW = ["127.0.0.1:4567"];
const WEBHOOK = "https://chat.googleapis.com/v1/spaces/AAAAbcd123/messages?key=AIzaKEY&token=SECRETtoken";
const PATH = "/v1/spaces/AAAAbcd123/messages";
const QUERY = "?key=AIzaKEY&token=SECRETtoken";

function urlError(raw: string): ApiError | "ok" {
  try {
    parseChannelUrl(googleChat, raw, ALLOW);
    return "ok";
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

const textOf = (raw: string) => (JSON.parse(raw) as { text: string }).text;
/** Our own constructs: links `<https://…|label>`, and bold `*…*` starting a line (the sentence, a label). */
const OUR_LINK = /<https?:\/\/[^|<>\s]+\|[^<>]*>/g;
const OUR_BOLD = /^\*[^*\n]+\*/gm;
const LOOK_ALIKES: Record<string, string> = { "∗": "*", ˍ: "_", "∼": "~", ˋ: "`", "‹": "<", "›": ">" };
const shown = (text: string) => text.replace(/[∗ˍ∼ˋ‹›]/g, (c) => LOOK_ALIKES[c] ?? c);

describe("google_chat: URL rule", () => {
  it.each([
    ["a Google Chat webhook", WEBHOOK, "ok"],
    ["with a thread key", `${WEBHOOK}&threadKey=alerts&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD`, "ok"],
    ["a local receiver on the allow list", `http://127.0.0.1:4567/gchat${PATH}${QUERY}`, "ok"],
    ["no token", "https://chat.googleapis.com/v1/spaces/AAAAbcd123/messages?key=AIzaKEY", "INVALID_URL"],
    ["no key", "https://chat.googleapis.com/v1/spaces/AAAAbcd123/messages?token=T", "INVALID_URL"],
    ["no space", "https://chat.googleapis.com/v1/spaces//messages?key=K&token=T", "INVALID_URL"],
    ["another API path", "https://chat.googleapis.com/v1/spaces/AAAA/members?key=K&token=T", "INVALID_URL"],
    ["another host", "https://chat.example.com/v1/spaces/AAAA/messages?key=K&token=T", "INVALID_URL"],
  ])("%s → %s", (_name, raw, expected) => {
    const outcome = urlError(raw);
    expect(outcome === "ok" ? "ok" : outcome.code).toBe(expected);
  });

  it("another host's INVALID_URL names Google Chat and shows the form it expects", () => {
    const error = urlError("https://hooks.example.com/v1/spaces/AAAA/messages?key=K&token=T");
    expect(error).toMatchObject({ code: "INVALID_URL", message: "This is not a Google Chat webhook URL." });
    expect((error as ApiError).hint).toBe(
      "A Google Chat webhook URL looks like https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…",
    );
  });
});

describe("google_chat: how its URL is shown after creation (never the space, the key or the token)", () => {
  it.each([
    [WEBHOOK, "https://chat.googleapis.com/v1/spaces/…"],
    [`http://127.0.0.1:4567${PATH}${QUERY}`, "http://127.0.0.1:4567/v1/spaces/…"],
    [`http://127.0.0.1:4567/gchat${PATH}${QUERY}`, "http://127.0.0.1:4567/…"],
  ])("%s → %s", (url, masked) => {
    expect(applyUrlMask(googleChat.mask, url)).toBe(masked);
  });
});

describe("google_chat: escaping (its formatting has no escape: look-alikes)", () => {
  it.each([
    ["*bold* _it_ ~strike~ `code`", "∗bold∗ ˍitˍ ∼strike∼ ˋcodeˋ"],
    ["<users/all> <https://evil.example|Click>", "‹users/all› ‹https://evil.example|Click›"],
    ["Schuhe für 🏃 & co", "Schuhe für 🏃 & co"],
  ])("%s → %s", (text, escaped) => {
    expect(googleChat.escape(text)).toBe(escaped);
  });
});

describe("google_chat: body", () => {
  it.each(everyMessage())("%s: Google Chat accepts it ({ text } within 4,096 characters)", (_name, message) => {
    const raw = googleChat.body(message);
    const answer = googleChatApi(asRequest(raw, PATH, QUERY));
    expect(answer.status, answer.body).toBe(200);
    expect(Object.keys(JSON.parse(raw) as object)).toEqual(["text"]);
  });

  it("says the email's sentence, the page and the link (as links), before → after, and links the monitor", () => {
    expect(textOf(googleChat.body(hostileEverywhere("Best shoes")))).toBe(
      [
        "*Anchor text changed: mine.example on Best shoes*",
        "*Page:* <https://blog.example.org/Best%20shoes|https://blog.example.org/Best shoes>",
        "*Link:* mine.example Best shoes",
        "*State:* live → anchor mismatch",
        "*Anchor text:* Best shoes → “Best shoes”",
        "<https://linklens.example/app/monitors/mon-1|Open the monitor>",
      ].join("\n"),
    );
    expect(textOf(googleChat.body(pingMessage(organization, "https://linklens.example/app/webhooks", at)))).toBe(
      "*LinkLens test: this channel will get Acme ‹!channel›'s link alerts*\n<https://linklens.example/app/webhooks|Open LinkLens>",
    );
  });

  it.each(HOSTILE)("page text %j is shown as written and forms no formatting, mention or link", (hostile) => {
    const text = textOf(googleChat.body(hostileEverywhere(hostile)));
    const links = text.match(OUR_LINK) ?? [];
    // Our links: the page (its URL parses) and the monitor; the hostile target is text.
    expect(links.map((link) => link.slice(1, link.indexOf("|")))).toEqual([
      new URL(`https://blog.example.org/${hostile}`).href.replace(/[|<> ]/g, encodeURIComponent),
      "https://linklens.example/app/monitors/mon-1",
    ]);
    const rest = text.replace(OUR_LINK, "").replace(OUR_BOLD, "");
    expect(rest).not.toMatch(/[*_~`<>]/);
    expect(shown(text)).toContain(`Anchor text changed: mine.example on ${oneLine(hostile)}`);
    expect(shown(text)).toContain(`*Anchor text:* ${oneLine(hostile)} → “${oneLine(hostile)}”`);
  });

  it("the longest message is cut with … within 4,096 characters, the monitor's link kept", () => {
    const text = textOf(googleChat.body(longestMessage()));
    expect(text.length).toBeLessThanOrEqual(GOOGLE_CHAT_TEXT);
    const lines = text.split("\n");
    expect(lines.at(-2)).toBe("…");
    expect(lines.at(-1)).toMatch(
      /^Open the monitor$|^<https:\/\/linklens\.example\/app\/monitors\/m+\|Open the monitor>$/,
    );
    expect(lines[0]?.endsWith("…*")).toBe(true);
  });
});

describe("google_chat: success rule", () => {
  it.each([
    [200, '{"name":"spaces/A/messages/B"}', true],
    [400, '{"error":{"code":400,"status":"INVALID_ARGUMENT"}}', false],
    [401, "", false],
    [429, '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}', false],
    [302, "", false],
    [500, "", false],
  ])("HTTP %i %j → delivered %s", (status, body, delivered) => {
    expect(googleChat.delivered({ status, body })).toBe(delivered);
  });
});
