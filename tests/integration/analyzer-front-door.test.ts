import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeHtml, analyzeUrl, shutdownAnalyzer, type AnalyzerSettings } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import { NO_RESPONSE, NOT_CHECKED } from "@/lib/link-status";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The analyzer's front door as the routes and the signed-in services (audits, checks) use it: settings passed in,
 * the pool (dist/analyzer-worker.cjs, `npm run build`) and the browser created on first use and closed
 * by shutdownAnalyzer.
 */
let site: FixtureSite;
let settings: AnalyzerSettings;

beforeAll(async () => {
  site = await startFixtureSite();
  settings = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    LINK_CHECK_TIMEOUT_MS: "2000",
  });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
});

describe("lib/analyzer/index.ts", () => {
  it("analyzeHtml classifies pasted markup without fetching anything", async () => {
    const result = await analyzeHtml(
      {
        html: '<a href="/a">A</a> <a href="https://other.example/" rel="sponsored">B</a> <a href="mailto:x@example.com">C</a>',
        pageUrl: "https://example.com/",
      },
      { settings, requestId: "front-door-paste" },
    );
    expect(result.links.map((link) => [link.href, link.linkType, link.isSponsored, link.httpStatus])).toEqual([
      ["https://example.com/a", "internal", false, NOT_CHECKED],
      ["https://other.example/", "external", true, NOT_CHECKED],
      ["mailto:x@example.com", "ignored", false, NOT_CHECKED],
    ]);
    expect(result.stats).toMatchObject({ total: 3, internal: 1, external: 1, ignored: 1, broken: 0 });
  });

  it("analyzeUrl renders, captures script-added links and checks every link", async () => {
    const result = await analyzeUrl(new URL(site.url("/shop")), { settings, requestId: "front-door-url" });
    const status = (path: string) => result.links.find((link) => link.href.endsWith(path))?.httpStatus;
    expect(status("/shop/added-by-script")).toBe(200);
    expect(status("/shop/about")).toBe(200);
    expect(status("/shop/missing")).toBe(404);
    // localhost is not on the allow list: the checker gets no HTTP response at all.
    expect(status("/shop/forum")).toBe(NO_RESPONSE);
    expect(result.stats).toMatchObject({ total: 6, ignored: 1, broken: 2 });
  });

  it("does no work for a caller that already gave up", async () => {
    const controller = new AbortController();
    controller.abort(new Error("client went away"));
    const before = site.hits("/shop");
    await expect(analyzeUrl(new URL(site.url("/shop")), { settings, signal: controller.signal })).rejects.toThrow(
      "client went away",
    );
    await expect(
      analyzeHtml(
        { html: "<a href=/x>x</a>", pageUrl: "https://example.com/" },
        { settings, signal: controller.signal },
      ),
    ).rejects.toThrow("client went away");
    expect(site.hits("/shop")).toBe(before);
  });

  it("starts again after shutdownAnalyzer (the singletons are lazy)", async () => {
    await shutdownAnalyzer();
    const result = await analyzeHtml(
      { html: '<a href="/again">again</a>', pageUrl: "https://example.com/" },
      { settings },
    );
    expect(result.links[0]?.href).toBe("https://example.com/again");
  });
});
