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
  // HTML (Telegram) and what Discord reads: mentions of people, roles and channels, timestamps, spoilers, headings.
  '<b>bold</b> <a href="https://evil.example">x</a> &amp; <script>alert(1)</script>',
  "@here <@123456789012345678> <@&987654321> <#123456> <t:1700000000:R> ||spoiler|| __under__",
  "# Heading -# small > quote",
  // Google Chat's mentions and links, Adaptive Card markdown and functions, Teams' mention tag.
  "<users/all> <users/112233445566778899> <https://evil.example|Click>",
  "**bold** [Click](https://evil.example) {{DATE(2017-02-14T06:08:39Z, SHORT)}} <at>Everyone</at>",
  // Telegram's own entities: a member's @username, a bot command, a hashtag; and a bare URL.
  "@admin /start@linklens_bot #deal $USD https://evil.example/win",
  // A list where a value starts, line breaks, and characters outside the BMP.
  "- item",
  "1. first",
  "line one\n# line two\r\n> quote",
  "Schuhe für 🏃‍♀️ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \\ back\\slash",
] as const;

/** 10,000 characters of everything above: far over every chat's limits. */
export const LONG_HOSTILE = HOSTILE.join(" ").repeat(20).slice(0, 10_000);

/**
 * A link event with `hostile` wherever page text reaches a message: the headline (the email's subject
 * names the page), the anchor text before and after, the page URL, the link's target (a domain match
 * shows as text) and the organization's name.
 */
export function hostileEverywhere(hostile: string): WebhookMessage {
  const delivery = hostileDelivery(hostile, {
    monitor: { id: "mon-1", url: `https://blog.example.org/${hostile}` },
    trackedLink: { id: "tl-1", target: `mine.example ${hostile}` },
    changes: [
      { label: "State", before: "live", after: "anchor mismatch" },
      { label: "Anchor text", before: hostile, after: `“${hostile}”` },
    ],
  });
  return eventMessage(delivery, { id: "org-1", name: hostile });
}

/**
 * Everything at once, as long as it can be: 10,000-character anchors, 2,048-character URLs and a
 * verdict change with more reasons than any chat has room for.
 */
export function longestMessage(): WebhookMessage {
  const longUrl = `https://blog.example.org/${"a(b)_c*".repeat(400)}`.slice(0, 2048);
  return eventMessage(
    hostileDelivery(LONG_HOSTILE, {
      monitor: { id: "mon-1", url: longUrl },
      trackedLink: { id: "tl-1", target: `${longUrl}?q=${LONG_HOSTILE}` },
      appUrl: `https://linklens.example/app/monitors/${"m".repeat(1500)}`,
      headline: `Anchor text changed: ${LONG_HOSTILE}`,
      changes: Array.from({ length: 40 }, (_, i) => ({
        label: `Reason ${i}`,
        before: LONG_HOSTILE,
        after: LONG_HOSTILE,
      })),
    }),
    { id: "org-1", name: LONG_HOSTILE },
  );
}

/** URLs of every length around the channels' cut-offs for linking them (500 to 2,048 characters). */
export function longUrlMessages(): Array<[string, WebhookMessage]> {
  return [500, 560, 900, 1100, 1600, 2048].map((length): [string, WebhookMessage] => {
    const url = `https://blog.example.org/${"p".repeat(length)}`.slice(0, length);
    return [
      `URLs of ${length} characters`,
      eventMessage(hostileDelivery("x", { monitor: { id: "mon-1", url }, trackedLink: { id: "tl-1", target: url } }), {
        id: "org-1",
        name: "Acme",
      }),
    ];
  });
}

/** Every stored shape, every hostile text and the longest message: what each channel's body must survive. */
export function everyMessage(): Array<[string, WebhookMessage]> {
  return [
    ...everyShape(),
    ...HOSTILE.map((hostile): [string, WebhookMessage] => [
      `hostile ${JSON.stringify(hostile)}`,
      hostileEverywhere(hostile),
    ]),
    ["10,000-character page text", hostileEverywhere(LONG_HOSTILE)],
    ["the longest message", longestMessage()],
    ...longUrlMessages(),
  ];
}

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
