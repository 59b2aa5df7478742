import { describe, expect, it } from "vitest";
import { botProtectionEnabled, isAutomatedUserAgent } from "@/lib/ratelimit";
import { parseConfig } from "@/lib/config";

const automated: [string, string | null | undefined][] = [
  ["missing (undefined)", undefined],
  ["missing (null)", null],
  ["empty", ""],
  ["whitespace", "   \t"],
  ["curl", "curl/8.5.0"],
  ["wget", "Wget/1.21.4"],
  ["python-requests", "python-requests/2.31.0"],
  ["Go http client", "Go-http-client/1.1"],
  ["node-fetch / undici", "node"],
  ["Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"],
  ["bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"],
  [
    "HeadlessChrome",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
  ],
];

const browsers: [string, string][] = [
  [
    "Chrome on Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  ],
  [
    "Chrome on Android",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  ],
  ["Firefox on Linux", "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0"],
  ["Firefox on macOS", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0"],
  [
    "Safari on macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  ],
  [
    "Safari on iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  ],
  [
    "Edge",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
  ],
];

describe("isAutomatedUserAgent", () => {
  it.each(automated)("%s -> automated", (_name, ua) => {
    expect(isAutomatedUserAgent(ua)).toBe(true);
  });
  it.each(browsers)("%s -> a person", (_name, ua) => {
    expect(isAutomatedUserAgent(ua)).toBe(false);
  });
});

describe("botProtectionEnabled", () => {
  it("defaults to on and follows BOT_PROTECTION", () => {
    expect(botProtectionEnabled(parseConfig({}))).toBe(true);
    expect(botProtectionEnabled(parseConfig({ BOT_PROTECTION: "off" }))).toBe(false);
    expect(botProtectionEnabled(parseConfig({ BOT_PROTECTION: " ON " }))).toBe(true);
  });
});
