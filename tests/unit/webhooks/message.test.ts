import { describe, expect, it } from "vitest";
import { WEBHOOK_KINDS } from "@/lib/schemas/webhook-kinds";
import { asMessage, eventMessage, pingMessage, type WebhookMessage } from "@/lib/webhooks/message";
import { attemptRequest } from "@/lib/webhooks/request";
import { generateSecret } from "@/lib/webhooks/secret";
import { everyShape, hostileDelivery, organization } from "./channels/messages";

/**
 * The stored message names no channel: what every chat says is `summary`, and rows written while it was
 * called `slack` (queued before an upgrade, or by an instance still on the older code) are delivered with
 * the same bytes.
 */

/** A message as the code before the rename stored it. */
function storedByOlderCode(message: WebhookMessage): Record<string, unknown> {
  const { summary, ...rest } = message;
  return JSON.parse(JSON.stringify({ ...rest, slack: summary })) as Record<string, unknown>;
}

const stored = (message: WebhookMessage) => JSON.parse(JSON.stringify(message)) as Record<string, unknown>;

describe("the stored message", () => {
  it.each(everyShape())(
    "%s: type, timestamp, data and a channel-neutral summary, nothing named after a kind",
    (_n, m) => {
      expect(Object.keys(m).sort()).toEqual(["data", "summary", "timestamp", "type"]);
      for (const kind of WEBHOOK_KINDS) expect(m).not.toHaveProperty(kind);
      expect(m.summary.button.url).toMatch(/^https:\/\/linklens\.example\/app\//);
    },
  );

  it("a link event's summary: the email's sentence, the page, the link, before → after, the monitor", () => {
    const delivery = hostileDelivery("<!channel>");
    expect(eventMessage(delivery, organization).summary).toEqual({
      headline: delivery.headline,
      pageUrl: delivery.monitor.url,
      target: "https://mine.example/",
      changes: delivery.changes,
      button: { label: "Open the monitor", url: delivery.appUrl },
    });
  });

  it("reads back what it wrote unchanged", () => {
    for (const [, message] of everyShape()) expect(asMessage(stored(message))).toEqual(message);
  });

  it("reads a row written with the summary under `slack` as the same message", () => {
    for (const [, message] of everyShape()) expect(asMessage(storedByOlderCode(message))).toEqual(message);
  });

  it.each(WEBHOOK_KINDS)("%s: an older row's attempt sends the same bytes as a new row's", (kind) => {
    const secret = generateSecret();
    const at = new Date("2026-11-23T12:00:00.000Z");
    for (const [, message] of everyShape()) {
      const now = attemptRequest(kind, asMessage(stored(message)), secret, "d-1", at);
      const older = attemptRequest(kind, asMessage(storedByOlderCode(message)), secret, "d-1", at);
      expect(older).toEqual(now);
    }
  });

  it("a row holding both names is read by the new one", () => {
    const message = pingMessage(organization, "https://linklens.example/app/webhooks", new Date());
    const both = { ...stored(message), slack: { ...message.summary, headline: "stale" } };
    expect(asMessage(both).summary.headline).toBe(message.summary.headline);
  });
});
