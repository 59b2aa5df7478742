import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { WEBHOOK_KIND_INFO, WEBHOOK_KINDS } from "@/lib/schemas/webhook-kinds";
import { createWebhookSchema } from "@/lib/schemas/webhooks";
import { CHANNELS, type Channel } from "@/lib/webhooks/channels";
import { slack } from "@/lib/webhooks/channels/slack";
import { standard } from "@/lib/webhooks/channels/standard";
import { attemptRequest } from "@/lib/webhooks/request";
import { generateSecret } from "@/lib/webhooks/secret";
import { parseChannelUrl } from "@/lib/webhooks/url";
import { everyShape } from "./messages";

/**
 * The channel registry (reports-and-channels.md "Chat channels"): every kind the API accepts has a
 * channel with every part, the app's labels come from the same list, and leaving a part or a kind out
 * does not compile (the @ts-expect-error lines fail `npm run typecheck` the day they stop being errors).
 */

// @ts-expect-error a kind without its channel is a compile error, never a fallback to another kind's body
const missingKind: typeof CHANNELS = { standard };
// @ts-expect-error a channel without one of its parts is a compile error
const missingPart: Channel<"slack"> = { ...slack, escape: undefined };
// @ts-expect-error a channel filed under another kind's key is a compile error
const wrongKey: typeof CHANNELS = { standard: slack, slack };
void [missingKind, missingPart, wrongKey];

const channels = WEBHOOK_KINDS.map((kind) => [kind, CHANNELS[kind]] as const);

describe("the channel registry", () => {
  it("has exactly the API's kinds, each channel under its own kind, and the app's labels for the same kinds", () => {
    expect(Object.keys(CHANNELS).sort()).toEqual([...WEBHOOK_KINDS].sort());
    expect(Object.keys(WEBHOOK_KIND_INFO).sort()).toEqual([...WEBHOOK_KINDS].sort());
    for (const [kind, channel] of channels) {
      expect(channel.kind).toBe(kind);
      expect(channel.info).toBe(WEBHOOK_KIND_INFO[kind]);
      expect(createWebhookSchema.parse({ url: "https://x.example/", kind }).kind).toBe(kind);
    }
  });

  it.each(channels)("%s has every part", (_kind, channel) => {
    for (const part of ["acceptsUrl", "escape", "body", "delivered"] as const)
      expect(typeof channel[part], part).toBe("function");
    expect(typeof channel.signed).toBe("boolean");
    expect(["whole", "masked"]).toContain(channel.mask.shown);
    expect(channel.info.label.trim()).not.toBe("");
    expect(channel.info.choice.trim()).not.toBe("");
    // The URL hint is the form a person pastes: an https URL (`…` for the parts the service makes up).
    expect(URL.parse(channel.info.urlHint)?.protocol).toBe("https:");
  });

  it("labels and choices tell the kinds apart", () => {
    const labels = WEBHOOK_KINDS.map((kind) => WEBHOOK_KIND_INFO[kind].label);
    const choices = WEBHOOK_KINDS.map((kind) => WEBHOOK_KIND_INFO[kind].choice);
    expect(new Set(labels).size).toBe(WEBHOOK_KINDS.length);
    expect(new Set(choices).size).toBe(WEBHOOK_KINDS.length);
  });

  it.each(channels)("%s renders every stored shape as JSON, and its request goes out as JSON", (kind, channel) => {
    for (const [, message] of everyShape()) {
      expect(() => JSON.parse(channel.body(message))).not.toThrow();
      const request = attemptRequest(kind, message, generateSecret(), "d-1", new Date());
      expect(request.body).toBe(channel.body(message));
      expect(request.headers["content-type"]).toBe("application/json");
      expect("webhook-signature" in request.headers).toBe(channel.signed);
    }
  });

  it.each(channels)(
    "%s never counts an answer outside 2xx as delivered (a channel's own rule may ask more of a 2xx)",
    (_kind, channel) => {
      for (const status of [100, 199, 301, 304, 400, 404, 429, 500, 503])
        expect(channel.delivered({ status, body: '{"ok":true}' }), String(status)).toBe(false);
    },
  );
});

describe("a channel's own URL rule (after the shared one)", () => {
  const ALLOW = ["127.0.0.1:4567"];
  /** A channel whose service has one host, as the chat channels to come have. */
  const onlyHooks: Channel = {
    ...slack,
    acceptsUrl: (url) => url.hostname === "hooks.slack.com" && url.pathname.startsWith("/services/"),
  };

  it("refuses another host with 400 INVALID_URL whose hint shows the expected form", () => {
    let error: unknown;
    try {
      parseChannelUrl(onlyHooks, "https://hooks.example.com/services/T/B/X", ALLOW);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "INVALID_URL", status: 400 });
    expect((error as ApiError).message).toContain("Slack");
    expect((error as ApiError).hint).toContain("https://hooks.slack.com/services/…");
  });

  it.each([
    ["its own form", "https://hooks.slack.com/services/T/B/X", "ok"],
    ["an ALLOW_PRIVATE_HOSTS entry (a local receiver in tests)", "http://127.0.0.1:4567/slack/T/B/X", "ok"],
    [
      "the shared rule still applies first (http to a public host)",
      "http://hooks.slack.com/services/T/B/X",
      "INVALID_URL",
    ],
  ])("%s → %s", (_name, raw, expected) => {
    let outcome = "ok";
    try {
      parseChannelUrl(onlyHooks, raw, ALLOW);
    } catch (error) {
      outcome = error instanceof ApiError ? error.code : "thrown";
    }
    expect(outcome).toBe(expected);
  });
});
