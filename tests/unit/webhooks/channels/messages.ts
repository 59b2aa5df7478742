import { eventMessage, pingMessage, type EventDelivery, type WebhookMessage } from "@/lib/webhooks/message";

/** Stored messages every channel must render, page text hostile where a page controls it. */

export const organization = { id: "org-1", name: "Acme <!channel>" };
export const at = new Date("2026-11-23T12:00:00.000Z");

/** Page text that would mention, link or mark up in some chat format if it were not escaped. */
export const HOSTILE = [
  "<!channel>",
  "<!here> <!everyone>",
  "<@U024BE7LH> pay now",
  "<#C024BE7LR|general>",
  "<https://evil.example|win a prize>",
  "&lt;!here&gt; &amp; more",
  "*bold* _it_ ~strike~ `code`",
  "@everyone [click](https://evil.example)",
] as const;

export function hostileDelivery(anchor: string, over: Partial<EventDelivery> = {}): EventDelivery {
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
    monitor: { id: "mon-1", url: `https://blog.example.org/post?q=${encodeURIComponent(anchor)}` },
    trackedLink: { id: "tl-1", target: "https://mine.example/" },
    appUrl: "https://linklens.example/app/monitors/mon-1",
    headline: `Anchor text changed: mine.example on ${anchor}`,
    changes: [
      { label: "State", before: "live", after: "anchor mismatch" },
      { label: "Anchor text", before: "Best shoes", after: anchor },
    ],
    ...over,
  };
}

/** One of each shape a delivery stores: a link event, a page event, a ping. */
export function everyShape(): Array<[string, WebhookMessage]> {
  return [
    ["a link event", eventMessage(hostileDelivery("<!channel>"), organization)],
    ["a page event", eventMessage(hostileDelivery("<!here>", { trackedLink: null, changes: [] }), organization)],
    ["a ping", pingMessage(organization, "https://linklens.example/app/webhooks", at)],
  ];
}
