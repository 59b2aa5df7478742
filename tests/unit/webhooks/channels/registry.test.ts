import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { WEBHOOK_KIND_INFO, WEBHOOK_KINDS, type WebhookKind } from "@/lib/schemas/webhook-kinds";
import { buildAccountOpenApiDocument } from "@/lib/schemas/openapi";
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

  it("the account OpenAPI document's kind enum is the registry's, in the request and in the answer", () => {
    const document = JSON.stringify(buildAccountOpenApiDocument("https://linklens.example"));
    const enums = [...document.matchAll(/"kind":\{"type":"string","enum":(\[[^\]]*\])/g)]
      .map((match) => JSON.parse(match[1] ?? "[]") as string[])
      .filter((kinds) => kinds.includes("standard"));
    // POST's body, and the Webhook of every answer that holds one.
    expect(enums.length).toBeGreaterThanOrEqual(2);
    for (const kinds of enums) expect(kinds).toEqual([...WEBHOOK_KINDS]);
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

describe("each kind's own URL rule (after the shared one)", () => {
  const ALLOW = ["127.0.0.1:4567"];
  /** One URL of each service: every chat kind takes its own and refuses the others'. */
  const SERVICE_URLS: Record<Exclude<WebhookKind, "standard">, string> = {
    slack: "https://hooks.slack.com/services/T000/B000/XXXX",
    discord: "https://discord.com/api/webhooks/1234567890/tokenTOKEN",
    teams: "https://prod-12.westus.logic.azure.com/workflows/0a1b/triggers/manual/paths/invoke?sig=S",
    google_chat: "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=K&token=T",
    telegram: "https://api.telegram.org/bot7000000001:AAH-x/sendMessage?chat_id=42",
  };
  const outcome = (kind: WebhookKind, raw: string) => {
    try {
      parseChannelUrl(CHANNELS[kind], raw, ALLOW);
      return "ok";
    } catch (error) {
      return error instanceof ApiError ? error.code : "thrown";
    }
  };

  it.each(WEBHOOK_KINDS)(
    "%s takes its service's URL and refuses every other service's with 400 INVALID_URL",
    (kind) => {
      for (const [service, url] of Object.entries(SERVICE_URLS))
        expect(outcome(kind, url), `${kind} ← ${service}`).toBe(
          kind === "standard" || kind === service ? "ok" : "INVALID_URL",
        );
      // The team's own receiver is only a standard endpoint.
      expect(outcome(kind, "https://hooks.example.com/linklens")).toBe(kind === "standard" ? "ok" : "INVALID_URL");
    },
  );

  it.each(WEBHOOK_KINDS)(
    "%s takes an ALLOW_PRIVATE_HOSTS entry (a local receiver in tests), after the shared rule",
    (kind) => {
      expect(outcome(kind, "http://127.0.0.1:4567/any/path")).toBe("ok");
      expect(outcome(kind, "http://127.0.0.1:4568/any/path")).toBe("INVALID_URL");
    },
  );

  it.each(WEBHOOK_KINDS.filter((kind) => kind !== "standard"))(
    "%s: the refusal's hint is the kind's URL form",
    (kind) => {
      let error: unknown;
      try {
        parseChannelUrl(CHANNELS[kind], "https://hooks.example.com/x", ALLOW);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toMatchObject({ code: "INVALID_URL", status: 400 });
      expect((error as ApiError).message).toBe(`This is not a ${WEBHOOK_KIND_INFO[kind].label} webhook URL.`);
      expect((error as ApiError).hint).toContain(`looks like ${WEBHOOK_KIND_INFO[kind].urlHint}`);
    },
  );
});
