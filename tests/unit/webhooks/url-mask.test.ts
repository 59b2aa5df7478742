import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { WEBHOOK_KINDS } from "@/lib/schemas/webhooks";
import {
  applyUrlMask,
  isMaskEcho,
  maskWebhookUrl,
  refuseMaskedUrl,
  URL_MASKS,
  type UrlMask,
} from "@/lib/webhooks/url-mask";

/**
 * How an endpoint's URL is shown after its creation (reports-and-channels.md "Chat channels"): a chat
 * kind's URL is masked (scheme, host, the path up to the first secret part, then "…"); a standard one is
 * shown whole. One rule per kind; the generic rule is also tried on the URL forms of the channels to come.
 */
describe("maskWebhookUrl", () => {
  it.each([
    ["slack", "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX", "https://hooks.slack.com/services/…"],
    ["slack", "https://hooks.slack.com/services/T000/B000/XXXX?x=1#y", "https://hooks.slack.com/services/…"],
    ["slack", "https://hooks.slack.com/services", "https://hooks.slack.com/services/…"],
    ["slack", "http://127.0.0.1:4010/slack/T000/B000/XXXX", "http://127.0.0.1:4010/…"],
    ["slack", "https://hooks.slack.com/", "https://hooks.slack.com/…"],
    ["standard", "https://hooks.example.com/linklens/abc?key=1", "https://hooks.example.com/linklens/abc?key=1"],
  ] as const)("%s: %s → %s", (kind, url, shown) => {
    expect(maskWebhookUrl(kind, url)).toBe(shown);
  });

  it("every kind has a rule, and every kind but standard is masked", () => {
    expect(Object.keys(URL_MASKS).sort()).toEqual([...WEBHOOK_KINDS].sort());
    for (const kind of WEBHOOK_KINDS) expect(URL_MASKS[kind].shown).toBe(kind === "standard" ? "whole" : "masked");
  });

  it.each<[string, UrlMask, string, string]>([
    [
      "discord",
      { shown: "masked", publicPath: ["api", "webhooks"] },
      "https://discord.com/api/webhooks/123456/tokenTOKEN",
      "https://discord.com/api/webhooks/…",
    ],
    [
      "teams",
      { shown: "masked", publicPath: ["webhookb2"] },
      "https://acme.webhook.office.com/webhookb2/abc@def/IncomingWebhook/x/y",
      "https://acme.webhook.office.com/webhookb2/…",
    ],
    [
      "google_chat",
      { shown: "masked", publicPath: ["v1", "spaces"] },
      "https://chat.googleapis.com/v1/spaces/AAA/messages?key=K&token=T",
      "https://chat.googleapis.com/v1/spaces/…",
    ],
    [
      "telegram",
      { shown: "masked", publicPath: [] },
      "https://api.telegram.org/bot123:ABC/sendMessage?chat_id=42",
      "https://api.telegram.org/…",
    ],
    [
      "a path that leaves the rule early",
      { shown: "masked", publicPath: ["api", "webhooks"] },
      "https://discord.com/api/v10/webhooks/1/t",
      "https://discord.com/api/…",
    ],
  ])("the rule fits %s", (_, rule, url, shown) => {
    expect(applyUrlMask(rule, url)).toBe(shown);
  });

  it("a URL that does not parse shows nothing of itself", () => {
    expect(maskWebhookUrl("slack", "not a url/T000/secret")).toBe("…");
  });
});

describe("a masked URL sent back", () => {
  const stored = "https://hooks.slack.com/services/T000/B000/XXXX";

  it("the stored URL's own mask is an echo (no change); a standard URL never is", () => {
    expect(isMaskEcho("slack", "https://hooks.slack.com/services/…", stored)).toBe(true);
    expect(isMaskEcho("slack", "https://hooks.slack.com/services/T000/B000/YYYY", stored)).toBe(false);
    expect(isMaskEcho("standard", stored, stored)).toBe(false);
  });

  it.each([
    "https://hooks.slack.com/services/…",
    "https://hooks.slack.com/services/T000/…",
    "https://hooks.slack.com/services/%E2%80%A6",
    "https://hooks.slack.com/services/%e2%80%a6",
  ])("%s is refused for a chat kind", (sent) => {
    expect(() => refuseMaskedUrl("slack", sent)).toThrow(ApiError);
    try {
      refuseMaskedUrl("slack", sent);
    } catch (error) {
      expect(error).toMatchObject({ code: "INVALID_URL" });
    }
  });

  it("a whole URL passes, and a standard URL is the team's own business", () => {
    expect(() => refuseMaskedUrl("slack", stored)).not.toThrow();
    expect(() => refuseMaskedUrl("standard", "https://hooks.example.com/a…b")).not.toThrow();
  });
});
