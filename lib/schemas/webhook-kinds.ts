/**
 * The webhook kinds (webhooks.md, reports-and-channels.md "Chat channels") and what a person is shown of
 * each: the browser-safe half of the channel registry. The app's kind list, its labels and its URL
 * placeholders come from here; the API's `kind` enum too. What a kind sends, which URLs it accepts and how
 * it shows them live with its channel module (lib/webhooks/channels/), which adds the I/O this file must
 * not carry. Imports nothing, so components may import it.
 *
 * A new kind is one entry in WEBHOOK_KINDS and one row here: the row is a compile error until it exists,
 * and so is the channel module (lib/webhooks/channels/index.ts is a Record over the same union).
 */

export const WEBHOOK_KINDS = ["standard", "slack", "discord", "teams", "google_chat", "telegram"] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export interface WebhookKindInfo {
  /** Short name, beside an endpoint in the app ("Slack"). */
  label: string;
  /** The choice in the app's Format list: what the receiver gets. */
  choice: string;
  /**
   * The form of URL the kind expects, shown as the app's placeholder and in the INVALID_URL hint when a
   * URL does not fit the kind (lib/webhooks/url.ts). `…` stands for the parts the receiver makes up.
   */
  urlHint: string;
  /** What the hint cannot show in one URL (Teams takes three hosts), added to the INVALID_URL hint. */
  urlNote?: string;
}

export const WEBHOOK_KIND_INFO: Record<WebhookKind, WebhookKindInfo> = {
  standard: {
    label: "Standard Webhooks",
    choice: "Standard Webhooks (signed JSON)",
    urlHint: "https://hooks.example.com/linklens",
  },
  slack: {
    label: "Slack",
    choice: "Slack incoming webhook",
    urlHint: "https://hooks.slack.com/services/…",
  },
  discord: {
    label: "Discord",
    choice: "Discord webhook",
    urlHint: "https://discord.com/api/webhooks/…",
  },
  teams: {
    label: "Microsoft Teams",
    choice: "Microsoft Teams (Workflows or incoming webhook)",
    urlHint: "https://prod-00.westus.logic.azure.com/workflows/…",
    urlNote:
      "its host ends in .logic.azure.com, .environment.api.powerplatform.com or .webhook.office.com (in Teams: Workflows → “Post to a channel when a webhook request is received”)",
  },
  google_chat: {
    label: "Google Chat",
    choice: "Google Chat webhook",
    urlHint: "https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…",
  },
  telegram: {
    label: "Telegram",
    choice: "Telegram bot (sendMessage)",
    urlHint: "https://api.telegram.org/bot…/sendMessage?chat_id=…",
  },
};

/** The chats a team can reach, by name, in the registry's order ("Slack", "Discord", …): the app's words list them. */
export const CHAT_LABELS: readonly string[] = WEBHOOK_KINDS.filter((kind) => kind !== "standard").map(
  (kind) => WEBHOOK_KIND_INFO[kind].label,
);
