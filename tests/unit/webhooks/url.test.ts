import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { parseWebhookUrl } from "@/lib/webhooks/url";

const ALLOW = ["127.0.0.1:4567"];

function codeOf(raw: string): string {
  try {
    parseWebhookUrl(raw, ALLOW);
    return "ok";
  } catch (error) {
    return error instanceof ApiError ? error.code : "thrown";
  }
}

describe("webhook URL rules (webhooks.md: https only, http only for ALLOW_PRIVATE_HOSTS entries, the analyzer's policy)", () => {
  it.each([
    ["an https URL", "https://hooks.example.com/linklens", "ok"],
    ["Slack's incoming-webhook URL", "https://hooks.slack.com/services/T000/B000/XXXX", "ok"],
    ["http to a public host", "http://hooks.example.com/", "INVALID_URL"],
    ["http to an allow-listed local receiver", "http://127.0.0.1:4567/hook", "ok"],
    ["https to an allow-listed local receiver", "https://127.0.0.1:4567/hook", "ok"],
    ["the same host on another port", "http://127.0.0.1:4568/hook", "INVALID_URL"],
    ["credentials", "https://user:pass@hooks.example.com/", "INVALID_URL"],
    ["a port other than 443", "https://hooks.example.com:8443/", "INVALID_URL"],
    ["localhost", "https://localhost/hook", "INVALID_URL"],
    ["a private IP", "https://10.0.0.8/hook", "INVALID_URL"],
    ["a loopback IP in another notation", "https://0x7f.1/hook", "INVALID_URL"],
    ["link-local (cloud metadata)", "https://169.254.169.254/latest", "INVALID_URL"],
    ["IPv6 loopback", "https://[::1]/", "INVALID_URL"],
    ["an .internal name", "https://svc.internal/", "INVALID_URL"],
    ["not a URL", "hooks.example.com", "INVALID_URL"],
    ["another scheme", "ftp://hooks.example.com/", "INVALID_URL"],
    ["empty", "", "INVALID_URL"],
    ["2,048 characters", `https://hooks.example.com/${"a".repeat(2048 - 26)}`, "ok"],
    ["2,049 characters", `https://hooks.example.com/${"a".repeat(2049 - 26)}`, "INVALID_URL"],
  ])("%s → %s", (_name, raw, expected) => {
    expect(codeOf(raw)).toBe(expected);
  });

  it("answers the WHATWG serialization", () => {
    expect(parseWebhookUrl("https://Hooks.Example.COM/a b", []).href).toBe("https://hooks.example.com/a%20b");
  });
});
