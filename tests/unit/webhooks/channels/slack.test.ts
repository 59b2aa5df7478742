import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { slack } from "@/lib/webhooks/channels/slack";
import { eventMessage, pingMessage } from "@/lib/webhooks/message";
import { parseChannelUrl } from "@/lib/webhooks/url";
import { applyUrlMask } from "@/lib/webhooks/url-mask";
import { HOSTILE, hostileDelivery, organization } from "./messages";

/** The `slack` channel, one table per part (webhooks.md "Delivery"; reports-and-channels.md "Chat channels"). */

const ALLOW = ["127.0.0.1:4567"];

function urlOutcome(raw: string): string {
  try {
    parseChannelUrl(slack, raw, ALLOW);
    return "ok";
  } catch (error) {
    return error instanceof ApiError ? error.code : "thrown";
  }
}

type Text = { type: string; text: string; verbatim?: boolean };
type Block = { type: string; text?: Text; fields?: Text[]; elements?: Array<{ url: string; text: Text }> };
type Body = { text: string; blocks: Block[] };

/** Every mrkdwn text of a body: the message text and each block's text and fields. */
function mrkdwnTexts(body: Body): string[] {
  return [
    body.text,
    ...body.blocks.flatMap((block) => [block.text, ...(block.fields ?? [])]).flatMap((t) => (t ? [t.text] : [])),
  ];
}

/** Slack's control sequences are `<…>`: the only ones allowed are our own links `<http(s)://…|label>`. */
const OUR_LINK = /^<https?:\/\/[^\s|<>]+\|[^<>]*>$/;

describe("slack: URL rule", () => {
  it.each([
    ["Slack's incoming-webhook URL", "https://hooks.slack.com/services/T000/B000/XXXX", "ok"],
    ["a local receiver on the allow list", "http://127.0.0.1:4567/slack/T000/B000/XXXX", "ok"],
    ["a relay in front of Slack (another host)", "https://relay.example.com/slack", "INVALID_URL"],
    ["a host that only starts like Slack's", "https://hooks.slack.com.evil.example/services/T/B/X", "INVALID_URL"],
    [
      "another Slack path (a workflow trigger takes another body)",
      "https://hooks.slack.com/triggers/T/1/x",
      "INVALID_URL",
    ],
    ["nothing after services", "https://hooks.slack.com/services/", "INVALID_URL"],
    ["http to Slack", "http://hooks.slack.com/services/T000/B000/XXXX", "INVALID_URL"],
    ["credentials", "https://user:pw@hooks.slack.com/services/T000/B000/XXXX", "INVALID_URL"],
    ["a private address", "https://10.0.0.8/services/T000/B000/XXXX", "INVALID_URL"],
    ["not a URL", "hooks.slack.com/services/T000", "INVALID_URL"],
  ])("%s → %s", (_name, raw, expected) => {
    expect(urlOutcome(raw)).toBe(expected);
  });
});

describe("slack: another host's INVALID_URL", () => {
  it("names Slack and shows the form it expects", () => {
    let error: unknown;
    try {
      parseChannelUrl(slack, "https://relay.example.com/services/T000/B000/XXXX", ALLOW);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ code: "INVALID_URL", status: 400, message: "This is not a Slack webhook URL." });
    expect((error as ApiError).hint).toBe("A Slack webhook URL looks like https://hooks.slack.com/services/…");
  });
});

describe("slack: how its URL is shown after creation", () => {
  it.each([
    ["https://hooks.slack.com/services/T000/B000/XXXXXXXX", "https://hooks.slack.com/services/…"],
    ["https://hooks.slack.com/services/T000/B000/XXXX?x=1#y", "https://hooks.slack.com/services/…"],
    ["https://relay.example.com/slack/T000/secret", "https://relay.example.com/…"],
    ["http://127.0.0.1:4567/services/T000/B000/XXXX", "http://127.0.0.1:4567/services/…"],
  ])("%s → %s", (url, shown) => {
    expect(applyUrlMask(slack.mask, url)).toBe(shown);
  });
});

describe("slack: escaping (mrkdwn)", () => {
  it.each([
    ["<!channel>", "&lt;!channel&gt;"],
    ["<@U024BE7LH> pay now", "&lt;@U024BE7LH&gt; pay now"],
    ["<https://evil.example|win>", "&lt;https://evil.example|win&gt;"],
    ["&lt;!here&gt;", "&amp;lt;!here&amp;gt;"],
    ["Schuhe für 🏃", "Schuhe für 🏃"],
    // mrkdwn has no escape for its formatting: page text shows look-alikes and formats nothing.
    ["*FREE* _now_ ~old~ `code`", "\u2217FREE\u2217 \u02cdnow\u02cd \u223cold\u223c \u02cbcode\u02cb"],
    ["```block```", "\u02cb\u02cb\u02cbblock\u02cb\u02cb\u02cb"],
  ])("%s → %s", (text, escaped) => {
    expect(slack.escape(text)).toBe(escaped);
  });
});

describe("slack: body — page text is data, never a mention or a link", () => {
  it.each(HOSTILE)("an anchor, a title and a page URL of %j open nothing", (hostile) => {
    const message = eventMessage(
      hostileDelivery(hostile, {
        monitor: { id: "mon-1", url: `https://blog.example.org/${hostile}` },
        trackedLink: { id: "tl-1", target: `mine.example ${hostile}` },
      }),
      organization,
    );
    const body = JSON.parse(slack.body(message)) as Body;
    for (const text of mrkdwnTexts(body))
      for (const sequence of text.match(/<[^>]*>?/g) ?? []) expect(sequence, text).toMatch(OUR_LINK);
    for (const block of body.blocks)
      for (const text of [block.text, ...(block.fields ?? [])]) if (text) expect(text.verbatim).toBe(true);
    const words = mrkdwnTexts(body).join("\n");
    expect(words).toContain(slack.escape(hostile));
    expect(words).toContain(`mine.example ${slack.escape(hostile)}`);
  });

  it("an organization's name in a ping is escaped too", () => {
    const body = JSON.parse(slack.body(pingMessage(organization, "https://linklens.example/app/webhooks", new Date())));
    expect(body.text).toContain("Acme &lt;!channel&gt;");
    expect(JSON.stringify(body)).not.toContain("<!channel>");
  });
});

describe("slack: success rule", () => {
  it.each([
    [200, "ok", true],
    [204, "", true],
    [299, "", true],
    [200, "invalid_payload", true],
    [400, "invalid_payload", false],
    [403, "action_prohibited", false],
    [404, "no_service", false],
    [410, "channel_is_archived", false],
    [302, "", false],
    [500, "", false],
  ])("HTTP %i %j → delivered %s", (status, body, delivered) => {
    expect(slack.delivered({ status, body })).toBe(delivered);
  });
});
