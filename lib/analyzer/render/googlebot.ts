import type { Page, Protocol, Viewport } from "puppeteer-core";

/**
 * Who a render is (google-view.md §2): the desktop visitor every render has been, or Googlebot Smartphone.
 * Google indexes the phone page, rendered by an evergreen Chromium that names itself Googlebot in the
 * User-Agent header and in navigator.userAgent, with a phone's viewport (grown like every render's: viewport.ts).
 * Nothing it sends may say HeadlessChrome: not the header, not the client hints (Sec-CH-UA and its
 * relatives), not navigator.userAgentData, which all follow the metadata set here.
 */

export type RenderAgent = "visitor" | "googlebot";

/** Googlebot Smartphone's viewport: 412×915 CSS px at a device scale factor of 2.625, touch, mobile. */
export const GOOGLEBOT_VIEWPORT: Readonly<Viewport> = {
  width: 412,
  height: 915,
  deviceScaleFactor: 2.625,
  isMobile: true,
  hasTouch: true,
};

/** The version of Chrome the browser is ("131.0.6778.85"), read from its own User-Agent; "0.0.0.0" if it says none. */
export function chromeVersion(browserUserAgent: string): string {
  return /(?:Headless)?Chrome\/([\d.]+)/.exec(browserUserAgent)?.[1] ?? "0.0.0.0";
}

/** Googlebot Smartphone's User-Agent, with the browser's own Chrome version (Google's Chromium is evergreen). */
export function googlebotUserAgent(version: string): string {
  return (
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) " +
    `Chrome/${version} Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`
  );
}

/** What the client hints and navigator.userAgentData say: an Android phone running Chrome, never HeadlessChrome. */
export function googlebotMetadata(version: string): Protocol.Emulation.UserAgentMetadata {
  const major = version.split(".")[0] ?? "0";
  return {
    brands: [
      { brand: "Chromium", version: major },
      { brand: "Not_A Brand", version: "24" },
    ],
    fullVersionList: [
      { brand: "Chromium", version },
      { brand: "Not_A Brand", version: "24.0.0.0" },
    ],
    platform: "Android",
    platformVersion: "6.0.1",
    architecture: "",
    model: "Nexus 5X",
    mobile: true,
  };
}

/**
 * Makes a fresh page Googlebot Smartphone before its navigation: the User-Agent with its client-hint
 * metadata (header, navigator.userAgent, navigator.userAgentData), and the phone viewport with touch.
 */
export async function emulateGooglebot(page: Page, browserUserAgent: string): Promise<void> {
  const version = chromeVersion(browserUserAgent);
  await page.setUserAgent({
    userAgent: googlebotUserAgent(version),
    userAgentMetadata: googlebotMetadata(version),
    platform: "Linux armv8l",
  });
  await page.setViewport({ ...GOOGLEBOT_VIEWPORT });
}
