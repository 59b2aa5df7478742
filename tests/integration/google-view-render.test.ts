import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectUrl, renderGoogleView, shutdownAnalyzer, type AnalyzerSettings } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { GOOGLE_PAGES, GOOGLE_TARGET_PATH } from "@/scripts/lib/google-view-pages";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Googlebot's render at the analyzer's front door (google-view.md §2), in a real Chromium against the
 * fixture site (scripts/lib/google-view-pages.ts), with the worker pool of the production build
 * (`npm run build` first): what the server sees (the User-Agent exactly, no HeadlessChrome in any header,
 * the mobile client hint), what the page sees (a 412 px phone at 2.625 with touch, Googlebot's
 * navigator.userAgent), what each cloaking page gives it, and every way it is `unavailable` without throwing.
 */

let site: FixtureSite;
let settings: AnalyzerSettings;
let chromeVersion: string;

const GOOGLEBOT_UA = (version: string) =>
  `Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`;

beforeAll(async () => {
  site = await startFixtureSite();
  settings = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    // Generous: these tests are about what is rendered, never about how fast.
    RENDER_TIMEOUT_MS: "20000",
  });
  // The browser's own version, as the visitor's render reports it (browser.userAgent() through our header).
  await inspectUrl(new URL(site.url("/")), { settings });
  chromeVersion = /Chrome\/([\d.]+)/.exec(site.headersOf("/")?.["user-agent"] ?? "")?.[1] ?? "missing";
}, 60_000);

afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
});

const render = (path: string) => renderGoogleView(new URL(site.url(path)), { settings });
const hrefsOf = (links: readonly { href: string }[] | null) => (links ?? []).map((link) => new URL(link.href).pathname);

describe("renderGoogleView: Googlebot Smartphone", () => {
  it("sends Googlebot's User-Agent with the browser's own Chrome version, and nothing says HeadlessChrome", async () => {
    const view = await render(GOOGLE_PAGES.same);
    expect(view.status).toBe("ok");
    const headers = site.headersOf(GOOGLE_PAGES.same) ?? {};
    expect(chromeVersion).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(headers["user-agent"]).toBe(GOOGLEBOT_UA(chromeVersion));
    expect(headers["sec-ch-ua-mobile"]).toBe("?1");
    expect(headers["sec-ch-ua-platform"]).toBe('"Android"');
    for (const [name, value] of Object.entries(headers))
      expect(`${name}: ${String(value)}`, "a header says HeadlessChrome").not.toMatch(/headless/i);
  }, 60_000);

  it("the page sees a 412 px phone at DPR 2.625 with touch, Googlebot's navigator.userAgent and no HeadlessChrome brand", async () => {
    const view = await render(GOOGLE_PAGES.probe);
    expect(view.status).toBe("ok");
    const probe = view.links?.find((link) => new URL(link.href).pathname === "/seen");
    expect(probe, JSON.stringify(view.links)).toBeDefined();
    const seen = Object.fromEntries(new URL(probe?.href ?? "http://x/").searchParams);
    expect(seen).toMatchObject({
      width: "412",
      screenWidth: "412",
      dpr: "2.625",
      ontouchstart: "true",
      ua: GOOGLEBOT_UA(chromeVersion),
      mobile: "true",
    });
    expect(Number(seen.touch)).toBeGreaterThan(0);
    expect(seen.brands).not.toMatch(/headless/i);
  }, 60_000);

  it.each([
    ["server-side cloaking (by the User-Agent header)", GOOGLE_PAGES.serverCloak, true],
    ["client-side cloaking (by navigator.userAgent)", GOOGLE_PAGES.clientCloak, true],
    ["a link written only when the UA is not Googlebot", GOOGLE_PAGES.hiddenFromGooglebot, false],
    ["a sidebar link removed below 600 px of width", GOOGLE_PAGES.wideSidebar, false],
    ["the same page for everyone", GOOGLE_PAGES.same, true],
  ])(
    "%s: the target is in Googlebot's render: %s",
    async (_name, path, inView) => {
      const view = await render(path);
      expect(view.status).toBe("ok");
      expect(hrefsOf(view.links).includes(GOOGLE_TARGET_PATH)).toBe(inView);
      expect(view.noindex).toBe(false);
    },
    60_000,
  );

  it("the visitor's render of the same pages is the opposite of the cloaking (the fixtures do what they say)", async () => {
    const visitor = async (path: string) =>
      hrefsOf((await inspectUrl(new URL(site.url(path)), { settings })).analysis.links).includes(GOOGLE_TARGET_PATH);
    expect(await visitor(GOOGLE_PAGES.serverCloak)).toBe(false);
    expect(await visitor(GOOGLE_PAGES.clientCloak)).toBe(false);
    expect(await visitor(GOOGLE_PAGES.hiddenFromGooglebot)).toBe(true);
    expect(await visitor(GOOGLE_PAGES.wideSidebar)).toBe(true);
  }, 90_000);

  it.each([
    ["meta robots written for Googlebot only", GOOGLE_PAGES.noindexMetaForGooglebot],
    ["X-Robots-Tag for Googlebot's User-Agent only", GOOGLE_PAGES.noindexHeaderForGooglebot],
  ])(
    "noindex by %s",
    async (_name, path) => {
      const view = await render(path);
      expect(view).toMatchObject({ status: "ok", noindex: true, httpStatus: 200 });
    },
    60_000,
  );

  it("a 403 for Googlebot is unavailable, with its status and no links, and does not throw", async () => {
    const view = await render(GOOGLE_PAGES.refuseGooglebot);
    expect(view).toMatchObject({ status: "unavailable", httpStatus: 403, noindex: null, links: null, camera: null });
  }, 60_000);

  it("a page that is not HTML, or answers 5xx, is unavailable too", async () => {
    site.setPage("/google/json", { body: "{}", headers: { "content-type": "application/json" } });
    expect(await render("/google/json")).toMatchObject({ status: "unavailable", httpStatus: 200, links: null });
    site.setPage("/google/down", { status: 503, body: "down" });
    expect(await render("/google/down")).toMatchObject({ status: "unavailable", httpStatus: 503, links: null });
  }, 60_000);

  it("a fresh context: no cookie of the visitor's render reaches Googlebot's", async () => {
    site.setPage("/google/cookie-set", {
      body: "<!doctype html><title>c</title><a href='/about'>a</a>",
      headers: { "set-cookie": "visitor=1; Path=/; Max-Age=3600" },
    });
    site.setPage("/google/cookie-read", { body: "<!doctype html><title>c</title><a href='/about'>a</a>" });
    await inspectUrl(new URL(site.url("/google/cookie-set")), { settings });
    expect((await render("/google/cookie-read")).status).toBe("ok");
    expect(site.headersOf("/google/cookie-read")?.cookie).toBeUndefined();
  }, 60_000);

  it("renderedAt reads the injected clock", async () => {
    const at = new Date("2031-02-03T04:05:06.000Z");
    expect(
      (await renderGoogleView(new URL(site.url(GOOGLE_PAGES.same)), { settings, now: () => at })).renderedAt,
    ).toEqual(at);
  }, 60_000);
});
