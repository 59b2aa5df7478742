import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { slackBody } from "@/lib/webhooks/channels/slack";
import { standardBody } from "@/lib/webhooks/channels/standard";
import { attemptRequest, webhookId } from "@/lib/webhooks/request";
import { eventMessage, pingMessage, type EventDelivery } from "@/lib/webhooks/message";
import { generateSecret } from "@/lib/webhooks/secret";
import { WEBHOOK_KINDS } from "@/lib/schemas/webhook-kinds";

const now = new Date("2026-11-23T12:00:00.000Z");
const organization = { id: "org-1", name: "Acme" };

function delivery(over: Partial<EventDelivery> = {}): EventDelivery {
  return {
    event: {
      id: "ev-1",
      type: "anchor_changed",
      monitorId: "mon-1",
      trackedLinkId: "tl-1",
      before: { state: "live" },
      after: { state: "anchor_mismatch" },
      createdAt: "2026-11-23T11:59:00.000Z",
    },
    monitor: { id: "mon-1", url: "https://blog.example.org/post" },
    trackedLink: { id: "tl-1", target: "https://mine.example/" },
    appUrl: "https://linklens.example/app/monitors/mon-1",
    headline: "Anchor text changed: mine.example on blog.example.org/post",
    changes: [
      { label: "State", before: "live", after: "anchor mismatch" },
      { label: "Anchor text", before: "“Best shoes”", after: "“<!channel> & <https://evil.example|win a prize>”" },
    ],
    ...over,
  };
}

describe("the standard body (webhooks.md)", () => {
  it("is { type, timestamp, data: { event, monitor, trackedLink, organization, appUrl } }", () => {
    const body = JSON.parse(standardBody(eventMessage(delivery(), organization)));
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
    expect(body.type).toBe("anchor_changed");
    expect(body.timestamp).toBe("2026-11-23T11:59:00.000Z");
    expect(Object.keys(body.data).sort()).toEqual(["appUrl", "event", "monitor", "organization", "trackedLink"]);
    expect(body.data.organization).toEqual(organization);
    expect(body.data.trackedLink).toEqual({ id: "tl-1", target: "https://mine.example/" });
    expect(body.data.event.id).toBe("ev-1");
  });

  it("a page event has trackedLink null; a ping's data is { organization, appUrl }", () => {
    const page = JSON.parse(standardBody(eventMessage(delivery({ trackedLink: null }), organization)));
    expect(page.data.trackedLink).toBeNull();
    const ping = JSON.parse(standardBody(pingMessage(organization, "https://linklens.example/app/webhooks", now)));
    expect(ping).toEqual({
      type: "ping",
      timestamp: now.toISOString(),
      data: { organization, appUrl: "https://linklens.example/app/webhooks" },
    });
  });
});

describe("signing: the standardwebhooks library's own verifier accepts it", () => {
  it.each(WEBHOOK_KINDS)("%s: webhook-id, webhook-timestamp and a v1 signature over the exact body", (kind) => {
    const secret = generateSecret();
    const request = attemptRequest(kind, eventMessage(delivery(), organization), secret, "d-1", new Date());
    expect(request.headers["webhook-id"]).toBe(webhookId("d-1"));
    expect(request.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(new Webhook(secret).verify(request.body, request.headers)).toEqual(JSON.parse(request.body));
  });

  it.each([
    ["another secret", (r: { body: string; headers: Record<string, string> }) => ({ secret: generateSecret(), ...r })],
    [
      "a changed body",
      (r: { body: string; headers: Record<string, string> }) => ({
        body: r.body.replace("anchor_changed", "link_fixed"),
        headers: r.headers,
      }),
    ],
    [
      "another webhook-id",
      (r: { body: string; headers: Record<string, string> }) => ({
        body: r.body,
        headers: { ...r.headers, "webhook-id": "msg_other" },
      }),
    ],
  ])("is refused with %s", (_name, tamper) => {
    const secret = generateSecret();
    const request = attemptRequest("standard", eventMessage(delivery(), organization), secret, "d-1", new Date());
    const changed = tamper(request) as { secret?: string; body: string; headers: Record<string, string> };
    expect(() => new Webhook(changed.secret ?? secret).verify(changed.body, changed.headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it("every attempt of a delivery has the same webhook-id and body; the timestamp is the attempt's", () => {
    const secret = generateSecret();
    const message = eventMessage(delivery(), organization);
    const first = attemptRequest("standard", message, secret, "d-1", now);
    const later = attemptRequest("standard", message, secret, "d-1", new Date(now.getTime() + 300_000));
    expect(later.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(later.body).toBe(first.body);
    expect(Number(later.headers["webhook-timestamp"]) - Number(first.headers["webhook-timestamp"])).toBe(300);
  });
});

type SlackText = { type: string; text: string; verbatim?: boolean };
type SlackBlock = {
  type: string;
  text?: SlackText;
  fields?: SlackText[];
  elements?: Array<{ type: string; url: string; text: { text: string } }>;
};

describe("the Slack body: text + blocks, page content escaped", () => {
  const parsed = (d: EventDelivery) =>
    JSON.parse(slackBody(eventMessage(d, organization))) as {
      text: string;
      blocks: SlackBlock[];
      unfurl_links: boolean;
    };

  it("says the email's sentence, the page, the link, before → after, and has a button to the monitor", () => {
    const body = parsed(delivery());
    expect(body.text).toBe("Anchor text changed: mine.example on blog.example.org/post");
    const all = JSON.stringify(body.blocks);
    expect(all).toContain("<https://blog.example.org/post|https://blog.example.org/post>");
    expect(all).toContain("<https://mine.example/|https://mine.example/>");
    expect(body.blocks.find((b) => b.text?.text.includes("*State:*"))?.text?.text).toContain("live → anchor mismatch");
    const actions = body.blocks.find((b) => b.type === "actions");
    expect(actions?.elements?.[0]).toMatchObject({
      type: "button",
      url: "https://linklens.example/app/monitors/mon-1",
      text: { text: "Open the monitor" },
    });
    expect(body.unfurl_links).toBe(false);
  });

  it.each([
    ["a channel mention in an anchor", "<!channel>", "&lt;!channel&gt;"],
    ["a link in an anchor", "<https://evil.example|win a prize>", "&lt;https://evil.example|win a prize&gt;"],
    ["a user mention in an anchor", "<@U024BE7LH> pay now", "&lt;@U024BE7LH&gt; pay now"],
    ["an entity in an anchor", "&lt;!here&gt;", "&amp;lt;!here&amp;gt;"],
  ])("%s arrives as text", (_name, anchor, escaped) => {
    const body = parsed(delivery({ changes: [{ label: "Anchor text", before: "old", after: anchor }] }));
    const texts = body.blocks.flatMap((b) => [b.text, ...(b.fields ?? [])]).filter((t): t is SlackText => Boolean(t));
    const changeText = texts.find((t) => t.text.startsWith("*Anchor text:*"));
    expect(changeText?.text).toContain(escaped);
    // No `<` opens anything in the page-content block, and Slack is told not to auto-link or auto-mention.
    expect(changeText?.text).not.toContain("<");
    for (const text of texts) expect(text).toMatchObject({ type: "mrkdwn", verbatim: true });
  });

  it("long anchors and URLs are cut below Slack's limits", () => {
    const long = "x".repeat(5000);
    const body = parsed(
      delivery({
        changes: [{ label: "Anchor text", before: long, after: long }],
        monitor: { id: "m", url: `https://example.org/${long}` },
      }),
    );
    for (const block of body.blocks) {
      if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
      for (const field of block.fields ?? []) expect(field.text.length).toBeLessThanOrEqual(2000);
    }
  });

  it("a ping says what it is and links to the app", () => {
    const body = JSON.parse(slackBody(pingMessage(organization, "https://linklens.example/app/webhooks", now))) as {
      text: string;
      blocks: SlackBlock[];
    };
    expect(body.text).toContain("LinkLens test");
    expect(body.blocks.at(-1)?.elements?.[0]?.url).toBe("https://linklens.example/app/webhooks");
  });
});
