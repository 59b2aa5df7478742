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
 * shown whole. One rule per kind (each kind's own table is in tests/unit/webhooks/channels/).
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

  it.each([
    ["discord", "https://discord.com/api/webhooks/123456/tokenTOKEN", "https://discord.com/api/webhooks/…"],
    ["discord", "https://discord.com/api/v10/webhooks/1/t", "https://discord.com/api/…"],
    [
      "teams",
      "https://acme.webhook.office.com/webhookb2/abc@def/IncomingWebhook/x/y",
      "https://acme.webhook.office.com/…",
    ],
    [
      "google_chat",
      "https://chat.googleapis.com/v1/spaces/AAA/messages?key=K&token=T",
      "https://chat.googleapis.com/v1/spaces/…",
    ],
    ["telegram", "https://api.telegram.org/bot123:ABC/sendMessage?chat_id=42", "https://api.telegram.org/bot…"],
    ["telegram", "https://api.telegram.org/bot", "https://api.telegram.org/bot…"],
    ["telegram", "https://api.telegram.org/other/bot123:ABC", "https://api.telegram.org/…"],
  ] as const)("%s: %s → %s", (kind, url, shown) => {
    expect(maskWebhookUrl(kind, url)).toBe(shown);
  });

  it.each<[string, UrlMask, string, string]>([
    [
      "a public prefix only after the whole public path",
      { shown: "masked", publicPath: ["api"], publicPrefix: "bot" },
      "https://x.example/botSECRET/api",
      "https://x.example/…",
    ],
    [
      "a public prefix that the next segment does not start with",
      { shown: "masked", publicPath: ["api"], publicPrefix: "bot" },
      "https://x.example/api/SECRETbot",
      "https://x.example/api/…",
    ],
  ])("the rule: %s", (_, rule, url, shown) => {
    expect(applyUrlMask(rule, url)).toBe(shown);
  });

  it("a chat kind's mask keeps no secret of its URL, for every kind", () => {
    const secret = "S3CR3T";
    for (const kind of WEBHOOK_KINDS.filter((k) => k !== "standard")) {
      const url = `https://host.example/${secret}/api/webhooks/${secret}/v1/bot${secret}?chat_id=${secret}&token=${secret}`;
      expect(maskWebhookUrl(kind, url), kind).not.toContain(secret);
    }
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
