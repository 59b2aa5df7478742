import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { standard } from "@/lib/webhooks/channels/standard";
import { eventMessage } from "@/lib/webhooks/message";
import { parseChannelUrl } from "@/lib/webhooks/url";
import { applyUrlMask } from "@/lib/webhooks/url-mask";
import { HOSTILE, hostileDelivery, organization } from "./messages";

/** The `standard` channel, one table per part (webhooks.md "Delivery"). */

const ALLOW = ["127.0.0.1:4567"];

function urlOutcome(raw: string): string {
  try {
    parseChannelUrl(standard, raw, ALLOW);
    return "ok";
  } catch (error) {
    return error instanceof ApiError ? error.code : "thrown";
  }
}

describe("standard: URL rule", () => {
  it.each([
    ["the team's own https receiver", "https://hooks.example.com/linklens", "ok"],
    ["with a query", "https://crm.example.com/in?key=abc", "ok"],
    ["a Slack URL (the team's choice of format)", "https://hooks.slack.com/services/T000/B000/XXXX", "ok"],
    ["a local receiver on the allow list", "http://127.0.0.1:4567/hook", "ok"],
    ["http to a public host", "http://hooks.example.com/linklens", "INVALID_URL"],
    ["a port other than 443", "https://hooks.example.com:8443/", "INVALID_URL"],
    ["localhost", "https://localhost/hook", "INVALID_URL"],
  ])("%s → %s", (_name, raw, expected) => {
    expect(urlOutcome(raw)).toBe(expected);
  });
});

describe("standard: its URL is shown whole (the team's own receiver)", () => {
  it.each([
    "https://hooks.example.com/linklens/abc?key=1",
    "https://hooks.example.com/",
    "http://127.0.0.1:4567/hook/secret-part",
  ])("%s", (url) => {
    expect(applyUrlMask(standard.mask, url)).toBe(url);
  });
});

describe("standard: page text travels as JSON data, exactly as written", () => {
  it.each(HOSTILE)("%j is the same string after JSON.parse, and escape leaves it as it is", (hostile) => {
    expect(standard.escape(hostile)).toBe(hostile);
    const delivery = hostileDelivery(hostile, {
      event: { ...hostileDelivery(hostile).event, after: { state: "anchor_mismatch", anchorText: hostile } },
    });
    const body = JSON.parse(standard.body(eventMessage(delivery, organization))) as {
      data: { event: { after: { anchorText: string } }; monitor: { url: string }; organization: { name: string } };
    };
    expect(body.data.event.after.anchorText).toBe(hostile);
    expect(body.data.monitor.url).toBe(delivery.monitor.url);
    expect(body.data.organization.name).toBe(organization.name);
  });

  it("sends the spec's fields and none of the chat summary", () => {
    const body = JSON.parse(standard.body(eventMessage(hostileDelivery("x"), organization)));
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
    expect(JSON.stringify(body)).not.toContain("Open the monitor");
  });
});

describe("standard: success rule (webhooks.md: a 2xx)", () => {
  it.each([
    [200, "", true],
    [202, "queued", true],
    [204, "", true],
    [200, '{"ok":false}', true],
    [301, "", false],
    [401, "bad signature", false],
    [500, "", false],
  ])("HTTP %i %j → delivered %s", (status, body, delivered) => {
    expect(standard.delivered({ status, body })).toBe(delivered);
  });
});
