import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { discord } from "@/lib/webhooks/channels/discord";
import { oneLine } from "@/lib/webhooks/channels/text";
import { parseChannelUrl } from "@/lib/webhooks/url";
import { applyUrlMask } from "@/lib/webhooks/url-mask";
import { asRequest, DISCORD, discordApi } from "../../../helpers/chat-receivers";
import { everyMessage, HOSTILE, hostileEverywhere, longestMessage } from "./messages";

/** The `discord` channel, one table per part (reports-and-channels.md "Chat channels"). */

const ALLOW = ["127.0.0.1:4567"];
const PATH = "/api/webhooks/1234567890/tokenTOKEN";

function urlError(raw: string): ApiError | "ok" {
  try {
    parseChannelUrl(discord, raw, ALLOW);
    return "ok";
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

interface Embed {
  title: string;
  url: string;
  description?: string;
  fields?: Array<{ name: string; value: string }>;
  timestamp: string;
}
interface Body {
  content: string;
  embeds: Embed[];
  allowed_mentions: { parse: string[] };
}

/** Text where every ASCII punctuation character is escaped: Discord shows it as written. */
const ESCAPED = String.raw`(?:[^!-/:-@[-\x60{-~]|\\[!-/:-@[-\x60{-~])*`;
const escapedText = new RegExp(`^${ESCAPED}$`);
const changeLine = new RegExp(`^\\*\\*${ESCAPED}:\\*\\* ${ESCAPED} → ${ESCAPED}$`);
const linkField = new RegExp(`^\\[${ESCAPED}\\]\\(https?://[^\\s()\\[\\]<>]+\\)$`);
const unescape = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, "$1");

describe("discord: URL rule", () => {
  it.each([
    ["a Discord webhook", "https://discord.com/api/webhooks/1234567890/AbC-d_E", "ok"],
    ["the older discordapp.com host", "https://discordapp.com/api/webhooks/1234567890/AbC", "ok"],
    ["into a forum thread", "https://discord.com/api/webhooks/1234567890/AbC?thread_id=42", "ok"],
    ["a local receiver on the allow list", `http://127.0.0.1:4567/discord${PATH}`, "ok"],
    ["another host", "https://discord.example.com/api/webhooks/1234567890/AbC", "INVALID_URL"],
    ["a subdomain posing as Discord", "https://discord.com.evil.example/api/webhooks/1/AbC", "INVALID_URL"],
    ["Slack's URL", "https://hooks.slack.com/services/T000/B000/XXXX", "INVALID_URL"],
    ["no token", "https://discord.com/api/webhooks/1234567890", "INVALID_URL"],
    ["an id that is not a number", "https://discord.com/api/webhooks/abc/AbC", "INVALID_URL"],
    ["another API path", "https://discord.com/api/channels/1234567890/messages", "INVALID_URL"],
    ["http to Discord", "http://discord.com/api/webhooks/1234567890/AbC", "INVALID_URL"],
  ])("%s → %s", (_name, raw, expected) => {
    const outcome = urlError(raw);
    expect(outcome === "ok" ? "ok" : outcome.code).toBe(expected);
  });

  it("another host's INVALID_URL names Discord and shows the form it expects", () => {
    const error = urlError("https://hooks.example.com/api/webhooks/1/AbC");
    expect(error).toMatchObject({ code: "INVALID_URL", status: 400, message: "This is not a Discord webhook URL." });
    expect((error as ApiError).hint).toBe("A Discord webhook URL looks like https://discord.com/api/webhooks/…");
  });
});

describe("discord: how its URL is shown after creation (never the id or the token)", () => {
  it.each([
    ["https://discord.com/api/webhooks/1234567890/tokenTOKEN", "https://discord.com/api/webhooks/…"],
    ["https://discord.com/api/webhooks/1234567890/tokenTOKEN?thread_id=42", "https://discord.com/api/webhooks/…"],
    ["https://discordapp.com/api/webhooks/1234567890/tokenTOKEN", "https://discordapp.com/api/webhooks/…"],
    [`http://127.0.0.1:4567/discord${PATH}`, "http://127.0.0.1:4567/…"],
  ])("%s → %s", (url, shown) => {
    expect(applyUrlMask(discord.mask, url)).toBe(shown);
  });
});

describe("discord: escaping (markdown, mentions, links)", () => {
  it.each([
    ["@everyone", "\\@everyone"],
    ["<@123> <#456> <@&789>", "\\<\\@123\\> \\<\\#456\\> \\<\\@\\&789\\>"],
    ["[click](https://evil.example)", "\\[click\\]\\(https\\:\\/\\/evil\\.example\\)"],
    ["**b** __u__ ||s|| `c` ~~x~~", "\\*\\*b\\*\\* \\_\\_u\\_\\_ \\|\\|s\\|\\| \\`c\\` \\~\\~x\\~\\~"],
    ["# h -# s > q", "\\# h \\-\\# s \\> q"],
    ["back\\slash", "back\\\\slash"],
    ["Schuhe für 🏃", "Schuhe für 🏃"],
  ])("%s → %s", (text, escaped) => {
    expect(discord.escape(text)).toBe(escaped);
  });
});

describe("discord: body", () => {
  it.each(everyMessage())(
    "%s: Discord accepts it (every limit, 6,000 in all), and it mentions nobody",
    (_name, message) => {
      const raw = discord.body(message);
      const answer = discordApi(asRequest(raw, PATH));
      expect(answer.status, answer.body).toBe(204);
      const body = JSON.parse(raw) as Body;
      expect(body.allowed_mentions).toEqual({ parse: [] });
      expect(body.embeds).toHaveLength(1);
    },
  );

  it.each(HOSTILE)("page text %j is shown as written and forms no markup, mention or link", (hostile) => {
    const body = JSON.parse(discord.body(hostileEverywhere(hostile))) as Body;
    const [embed] = body.embeds;
    expect(body.content).toMatch(escapedText);
    expect(embed?.title).toMatch(escapedText);
    for (const line of embed?.description?.split("\n") ?? []) expect(line).toMatch(changeLine);
    for (const field of embed?.fields ?? [])
      expect(field.value).toMatch(new RegExp(`${linkField.source}|${escapedText.source}`));
    // What a reader sees is the page's text, on one line.
    expect(unescape(body.content)).toContain(oneLine(hostile));
    expect(unescape(embed?.description ?? "")).toContain(`“${oneLine(hostile)}”`);
    expect(unescape(embed?.fields?.[1]?.value ?? "")).toBe(`mine.example ${oneLine(hostile)}`);
  });

  it("says the email's sentence, the page and the link (as links), before → after, and links the monitor", () => {
    const body = JSON.parse(discord.body(hostileEverywhere("Best shoes"))) as Body;
    expect(body.content).toBe("Anchor text changed\\: mine\\.example on Best shoes");
    expect(body.embeds[0]).toEqual({
      title: "Open the monitor",
      url: "https://linklens.example/app/monitors/mon-1",
      description: "**State:** live → anchor mismatch\n**Anchor text:** Best shoes → “Best shoes”",
      fields: [
        {
          name: "Page",
          value: "[https\\:\\/\\/blog\\.example\\.org\\/Best shoes](https://blog.example.org/Best%20shoes)",
        },
        { name: "Link", value: "mine\\.example Best shoes" },
      ],
      timestamp: "2026-11-23T11:59:00.000Z",
    });
  });

  it("the longest message is cut with … within each limit and 6,000 in all", () => {
    const body = JSON.parse(discord.body(longestMessage())) as Body;
    const [embed] = body.embeds;
    expect(body.content.length).toBeLessThanOrEqual(DISCORD.content);
    expect(body.content.endsWith("…")).toBe(true);
    expect(embed?.description?.length).toBeLessThanOrEqual(DISCORD.description);
    expect(embed?.description?.endsWith("\n…")).toBe(true);
    const total = [embed?.title, embed?.description, ...(embed?.fields ?? []).flatMap((f) => [f.name, f.value])].join(
      "",
    );
    expect(total.length).toBeLessThanOrEqual(DISCORD.total);
    // A URL too long to link is shown (cut) as text.
    expect(embed?.fields?.[0]?.value).toMatch(escapedText);
  });
});

describe("discord: success rule", () => {
  it.each([
    [204, "", true],
    [200, '{"id":"1"}', true],
    [400, '{"message":"Invalid Form Body","code":50035}', false],
    [404, '{"message":"Unknown Webhook","code":10015}', false],
    [429, '{"message":"You are being rate limited.","retry_after":1.5}', false],
    [301, "", false],
    [500, "", false],
  ])("HTTP %i %j → delivered %s", (status, body, delivered) => {
    expect(discord.delivered({ status, body })).toBe(delivered);
  });
});
