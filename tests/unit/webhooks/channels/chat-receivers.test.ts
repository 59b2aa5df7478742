import { describe, expect, it } from "vitest";
import { discord } from "@/lib/webhooks/channels/discord";
import { googleChat } from "@/lib/webhooks/channels/google-chat";
import { teams } from "@/lib/webhooks/channels/teams";
import { telegram } from "@/lib/webhooks/channels/telegram";
import {
  asRequest,
  discordApi,
  googleChatApi,
  parseTelegramHtml,
  teamsApi,
  telegramApi,
} from "../../../helpers/chat-receivers";
import type { ReceivedRequest } from "../../../helpers/webhook-receiver";
import { hostileEverywhere } from "./messages";

/**
 * The receivers the delivery suites post to (tests/helpers/chat-receivers.ts) refuse what each service
 * refuses: a receiver that took anything would let a broken body pass every suite. Each row changes one
 * thing of a body the service takes.
 */

const message = hostileEverywhere("Best shoes");
type Edit = (body: Record<string, unknown>) => unknown;
const edited = (raw: string, edit: Edit) => JSON.stringify(edit(JSON.parse(raw) as Record<string, unknown>));
const embedOf = (body: Record<string, unknown>) => (body.embeds as Array<Record<string, unknown>>)[0] ?? {};
const cardOf = (body: Record<string, unknown>) =>
  ((body.attachments as Array<Record<string, unknown>>)[0]?.content ?? {}) as Record<string, unknown>;

function table(
  name: string,
  api: (request: ReceivedRequest) => { status: number; body?: string },
  request: (body: string) => ReceivedRequest,
  good: string,
  success: number,
  rows: Array<[string, Edit | string, number, RegExp]>,
) {
  describe(`${name} receiver`, () => {
    it(`takes LinkLens's body (${success})`, () => {
      expect(api(request(good)).status).toBe(success);
    });
    it.each(rows)("refuses %s", (_what, edit, status, says) => {
      const answer = api(request(typeof edit === "string" ? edit : edited(good, edit)));
      expect(answer.status, answer.body).toBe(status);
      expect(answer.body).toMatch(says);
    });
  });
}

const DISCORD_PATH = "/api/webhooks/1234567890/tokenTOKEN";
table("Discord", discordApi, (body) => asRequest(body, DISCORD_PATH), discord.body(message), 204, [
  ["a body that is not JSON", "{content:", 400, /invalid JSON/],
  ["content over 2,000", (b) => ({ ...b, content: "x".repeat(2001) }), 400, /content: must be 2000 or fewer/],
  ["11 embeds", (b) => ({ ...b, embeds: Array.from({ length: 11 }, () => embedOf(b)) }), 400, /embeds: at most 10/],
  [
    "a title over 256",
    (b) => ({ ...b, embeds: [{ ...embedOf(b), title: "x".repeat(257) }] }),
    400,
    /title: must be 256/,
  ],
  [
    "a description over 4,096",
    (b) => ({ ...b, embeds: [{ ...embedOf(b), description: "x".repeat(4097) }] }),
    400,
    /description: must be 4096/,
  ],
  [
    "26 fields",
    (b) => ({
      ...b,
      embeds: [{ ...embedOf(b), fields: Array.from({ length: 26 }, () => ({ name: "n", value: "v" })) }],
    }),
    400,
    /fields: at most 25/,
  ],
  [
    "a field value over 1,024",
    (b) => ({ ...b, embeds: [{ ...embedOf(b), fields: [{ name: "n", value: "x".repeat(1025) }] }] }),
    400,
    /value: must be 1024/,
  ],
  [
    "a field without a name",
    (b) => ({ ...b, embeds: [{ ...embedOf(b), fields: [{ name: "", value: "v" }] }] }),
    400,
    /name: must not be empty/,
  ],
  [
    "an embed over 6,000 in all",
    (b) => ({
      ...b,
      embeds: [
        {
          ...embedOf(b),
          description: "x".repeat(4000),
          fields: Array.from({ length: 3 }, () => ({ name: "n", value: "x".repeat(1000) })),
        },
      ],
    }),
    400,
    /Embed size exceeds maximum size of 6000/,
  ],
  ["an embed url that is not a URL", (b) => ({ ...b, embeds: [{ ...embedOf(b), url: "monitor" }] }), 400, /url/],
  ["an empty message", (b) => ({ ...b, content: "", embeds: [] }), 400, /Cannot send an empty message/],
  ["no allowed_mentions (LinkLens rule)", (b) => ({ ...b, allowed_mentions: undefined }), 400, /LinkLens rule/],
  [
    "allowed_mentions that parse everyone",
    (b) => ({ ...b, allowed_mentions: { parse: ["everyone"] } }),
    400,
    /LinkLens rule/,
  ],
  ["allowed_mentions of an unknown kind", (b) => ({ ...b, allowed_mentions: { parse: ["all"] } }), 400, /parse/],
]);

describe("Discord receiver: the URL form", () => {
  it("answers 404 Unknown Webhook on another path", () => {
    expect(discordApi(asRequest(discord.body(message), "/api/webhooks/x"))).toMatchObject({ status: 404 });
  });
});

table("Teams", teamsApi, (body) => asRequest(body, "/workflows/x"), teams.body(message), 202, [
  ["a body that is not JSON", "{type:", 400, /Bad payload/],
  ["another type", (b) => ({ ...b, type: "card" }), 400, /type: must be "message"/],
  ["no attachment", (b) => ({ ...b, attachments: [] }), 400, /attachments: at least one/],
  [
    "another content type",
    (b) => ({ ...b, attachments: [{ contentType: "application/vnd.microsoft.card.hero", content: cardOf(b) }] }),
    400,
    /contentType/,
  ],
  [
    "a card version Teams does not render",
    (b) => ({ ...b, attachments: [{ ...(b.attachments as object[])[0], content: { ...cardOf(b), version: "1.6" } }] }),
    400,
    /version/,
  ],
  [
    "another version than 1.4 (LinkLens rule)",
    (b) => ({ ...b, attachments: [{ ...(b.attachments as object[])[0], content: { ...cardOf(b), version: "1.2" } }] }),
    400,
    /LinkLens rule/,
  ],
  [
    "a TextBlock without text",
    (b) => ({
      ...b,
      attachments: [{ ...(b.attachments as object[])[0], content: { ...cardOf(b), body: [{ type: "TextBlock" }] } }],
    }),
    400,
    /text: required/,
  ],
  [
    "a fact without a value",
    (b) => ({
      ...b,
      attachments: [
        {
          ...(b.attachments as object[])[0],
          content: { ...cardOf(b), body: [{ type: "FactSet", facts: [{ title: "Page" }] }] },
        },
      ],
    }),
    400,
    /title and value must be strings/,
  ],
  [
    "an Action.OpenUrl without a URL",
    (b) => ({
      ...b,
      attachments: [
        { ...(b.attachments as object[])[0], content: { ...cardOf(b), actions: [{ type: "Action.OpenUrl" }] } },
      ],
    }),
    400,
    /Action.OpenUrl needs an absolute url/,
  ],
  [
    "a card without its FactSet (LinkLens rule)",
    (b) => ({
      ...b,
      attachments: [
        { ...(b.attachments as object[])[0], content: { ...cardOf(b), body: [{ type: "TextBlock", text: "x" }] } },
      ],
    }),
    400,
    /LinkLens rule/,
  ],
  ["a message over 28 KB", (b) => ({ ...b, padding: "x".repeat(28 * 1024) }), 413, /28 KB/],
]);

const GOOGLE_PATH = "/v1/spaces/AAAA/messages";
const GOOGLE_QUERY = "?key=K&token=T";
table(
  "Google Chat",
  googleChatApi,
  (body) => asRequest(body, GOOGLE_PATH, GOOGLE_QUERY),
  googleChat.body(message),
  200,
  [
    ["a body that is not JSON", "{text:", 400, /Invalid JSON payload/],
    ["a field Google does not know", (b) => ({ ...b, blocks: [] }), 400, /Unknown name \\"blocks\\"/],
    ["a text over 4,096", () => ({ text: "x".repeat(4097) }), 400, /longer than 4096/],
    ["an empty message", () => ({ text: "" }), 400, /Message cannot be empty/],
    ["a text that is not a string", () => ({ text: 42 }), 400, /message\.text/],
  ],
);

describe("Google Chat receiver: the URL form", () => {
  it.each([
    ["no token", GOOGLE_PATH, "?key=K", 401],
    ["no key", GOOGLE_PATH, "?token=T", 403],
    ["another path", "/v1/spaces/AAAA/members", GOOGLE_QUERY, 404],
  ])("%s → %i", (_name, path, query, status) => {
    expect(googleChatApi(asRequest(googleChat.body(message), path, query)).status).toBe(status);
  });
});

const TELEGRAM_PATH = "/bot7000000001:AAH-x/sendMessage";
table("Telegram", telegramApi, (body) => asRequest(body, TELEGRAM_PATH, "?chat_id=42"), telegram.body(message), 200, [
  [
    "a body that is not JSON",
    "{text:",
    400,
    /"ok":false,"error_code":400,"description":"Bad Request: can't parse JSON/,
  ],
  ["no text", (b) => ({ ...b, text: "" }), 400, /message text is empty/],
  ["a text over 4,096 once read", (b) => ({ ...b, text: "&amp;".repeat(4097) }), 400, /message is too long/],
  ["a tag Telegram does not have", (b) => ({ ...b, text: "<h1>x</h1>" }), 400, /Unsupported start tag \\"h1\\"/],
  ["a raw <", (b) => ({ ...b, text: "a < b" }), 400, /can't parse entities/],
  ["a tag left open", (b) => ({ ...b, text: "<b>x" }), 400, /Can't find end tag/],
  ["tags closed out of order", (b) => ({ ...b, text: "<b><i>x</b></i>" }), 400, /Unmatched end tag/],
  ["a named entity Telegram does not know", (b) => ({ ...b, text: "&nbsp;" }), 400, /Unsupported HTML entity/],
  ["a link to javascript:", (b) => ({ ...b, text: '<a href="javascript:x">x</a>' }), 400, /Wrong URL/],
  ["an unknown parse_mode", (b) => ({ ...b, parse_mode: "html5" }), 400, /unsupported parse_mode/],
  ["no parse_mode (LinkLens rule)", (b) => ({ ...b, parse_mode: undefined }), 400, /LinkLens rule/],
  [
    "previews on (LinkLens rule)",
    (b) => ({ ...b, link_preview_options: { is_disabled: false } }),
    400,
    /LinkLens rule/,
  ],
]);

describe("Telegram receiver: the URL form and the answer", () => {
  it("answers 404 on another method, 400 without chat_id", () => {
    expect(telegramApi(asRequest(telegram.body(message), "/bot1:x/sendPhoto", "?chat_id=42")).status).toBe(404);
    const noChat = telegramApi(asRequest(telegram.body(message), TELEGRAM_PATH));
    expect(noChat.status).toBe(400);
    expect(noChat.body).toContain("chat_id is empty");
  });

  it("echoes the message as the Bot API does: more than the 1 KiB a sender keeps, ok first", () => {
    const answer = telegramApi(
      asRequest(telegram.body(hostileEverywhere("x".repeat(300))), TELEGRAM_PATH, "?chat_id=42"),
    );
    expect(answer.body?.startsWith('{"ok":true,')).toBe(true);
    expect(Buffer.byteLength(answer.body ?? "")).toBeGreaterThan(1024);
  });

  it("reads Telegram's HTML: tags, entities, the text shown", () => {
    expect(parseTelegramHtml('<b>a &amp; b</b> <a href="https://x.example/?a=1&amp;b=2">x</a> &#128512;')).toEqual({
      plain: "a & b x 😀",
      tags: [
        { name: "b", attributes: {} },
        { name: "a", attributes: { href: "https://x.example/?a=1&b=2" } },
      ],
    });
  });
});
