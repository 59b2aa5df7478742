import { describe, expect, it } from "vitest";
import { describeEvent } from "@/lib/alerts/describe";
import type { AlertEvent } from "@/lib/schemas/alerts";
import { WEBHOOK_KINDS, type WebhookKind } from "@/lib/schemas/webhook-kinds";
import { CHANNELS } from "@/lib/webhooks/channels";
import { eventMessage } from "@/lib/webhooks/message";

/**
 * crawler_access_changed in every webhook kind's body (google-view.md §3; webhooks.md, reports-and-channels.md):
 * the standard body carries the event as stored (`before`/`after` the sorted lists of disallowed agents), and
 * every chat message says the email's sentence and the set before → after, in its own format. The words
 * come from lib/alerts/describe.ts, as lib/alerts/webhooks.ts takes them when it queues a delivery.
 */

const event: AlertEvent = {
  id: "ev-9",
  type: "crawler_access_changed",
  monitorId: "mon-1",
  trackedLinkId: null,
  before: { disallowed: ["GPTBot"] },
  after: { disallowed: ["GPTBot", "CCBot"] },
  createdAt: "2026-11-23T11:59:00.000Z",
};
const pageUrl = "https://blog.example.org/post";
const appUrl = "https://linklens.example/app/monitors/mon-1";
const words = describeEvent(
  { type: "crawler_access_changed", before: event.before, after: event.after },
  { pageUrl, target: null },
);
const message = eventMessage(
  {
    event,
    monitor: { id: "mon-1", url: pageUrl },
    trackedLink: null,
    appUrl,
    headline: words.headline,
    changes: words.changes,
  },
  { id: "org-1", name: "Acme" },
);
const body = (kind: WebhookKind) => JSON.parse(CHANNELS[kind].body(message)) as Record<string, unknown>;

describe("crawler_access_changed in each webhook kind", () => {
  it("standard: the Standard Webhooks body, the event with before/after as stored", () => {
    expect(body("standard")).toEqual({
      type: "crawler_access_changed",
      timestamp: "2026-11-23T11:59:00.000Z",
      data: {
        event,
        monitor: { id: "mon-1", url: pageUrl },
        trackedLink: null,
        organization: { id: "org-1", name: "Acme" },
        appUrl,
      },
    });
  });

  it("slack: the sentence, the page, the set before → after and the newly blocked agent, the button", () => {
    const slack = body("slack") as { text: string; blocks: Array<Record<string, unknown>> };
    expect(slack.text).toBe("AI crawlers now blocked: CCBot on blog.example.org/post");
    const shown = JSON.stringify(slack.blocks);
    expect(shown).toContain("*Blocked crawlers:* GPTBot → GPTBot, CCBot\\n*CCBot:* allowed → blocked");
    expect(shown).toContain(`<${pageUrl}|${pageUrl}>`);
    expect(shown).toContain(`"url":"${appUrl}"`);
  });

  it("discord: the sentence as content (escaped), the changes in the embed, no mention parsed", () => {
    const discord = body("discord") as {
      content: string;
      embeds: Array<{ description: string; url: string }>;
      allowed_mentions: unknown;
    };
    expect(discord.content).toBe("AI crawlers now blocked\\: CCBot on blog\\.example\\.org\\/post");
    expect(discord.embeds[0]?.description).toBe(
      "**Blocked crawlers:** GPTBot → GPTBot\\, CCBot\n**CCBot:** allowed → blocked",
    );
    expect(discord.embeds[0]?.url).toBe(appUrl);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
  });

  it("teams: the sentence in the card, the changes as facts, the monitor as its action", () => {
    const text = JSON.stringify(body("teams"));
    expect(text).toContain('"text":"AI crawlers now blocked: CCBot on blog.example.org/post"');
    expect(text).toContain('{"title":"Blocked crawlers","value":"GPTBot → GPTBot, CCBot"}');
    expect(text).toContain('{"title":"CCBot","value":"allowed → blocked"}');
    expect(text).toContain(`{"type":"Action.OpenUrl","title":"Open the monitor","url":"${appUrl}"}`);
  });

  it("google_chat: one text with the sentence, the page, the changes and the link", () => {
    expect(body("google_chat")).toEqual({
      text: [
        "*AI crawlers now blocked: CCBot on blog.example.org/post*",
        `*Page:* <${pageUrl}|${pageUrl}>`,
        "*Blocked crawlers:* GPTBot → GPTBot, CCBot",
        "*CCBot:* allowed → blocked",
        `<${appUrl}|Open the monitor>`,
      ].join("\n"),
    });
  });

  it("telegram: the same in HTML, no preview", () => {
    expect(body("telegram")).toEqual({
      text: [
        "<b>AI crawlers now blocked: CCBot on blog.example.org/post</b>",
        `<b>Page:</b> <a href="${pageUrl}">${pageUrl}</a>`,
        "<b>Blocked crawlers:</b> GPTBot → GPTBot, CCBot",
        "<b>CCBot:</b> allowed → blocked",
        `<a href="${appUrl}">Open the monitor</a>`,
      ].join("\n"),
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    });
  });

  it("every kind is covered above", () => {
    expect([...WEBHOOK_KINDS].sort()).toEqual(["discord", "google_chat", "slack", "standard", "teams", "telegram"]);
  });
});
