import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  analyzeUrl,
  inspectHtml,
  inspectUrl,
  shutdownAnalyzer,
  type AnalyzerSettings,
  type PageReport,
} from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { VERDICT_TARGET_PATH } from "@/scripts/lib/fixture-verdict";
import { DECLARATIVE_ORDER, SCRIPTED_ORDER } from "@/scripts/lib/capture-pages";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The link and page signals of placement-verdict.md at the analyzer's front door, on the real pages of
 * the fixture site in a real Chromium (the worker pool is dist/analyzer-worker.cjs: `npm run build`).
 * Signals are computed only when asked for; the public answer of the same page is unchanged.
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

async function inspect(path: string): Promise<PageReport> {
  return inspectUrl(new URL(site.url(path)), { settings, signals: true, checkLinks: () => false });
}

/** The signals of the links to the verdict target, in document order. */
async function targetSignals(path: string) {
  const report = await inspect(path);
  return report.analysis.links.flatMap((link, index) =>
    link.href === site.url(VERDICT_TARGET_PATH) ? [report.linkSignals[index]] : [],
  );
}

describe("hidden: the visibility pass in the rendered page", () => {
  it.each([
    "/verdict/hidden/display-none",
    "/verdict/hidden/visibility",
    "/verdict/hidden/collapse",
    "/verdict/hidden/opacity",
    "/verdict/hidden/zero-box",
    "/verdict/hidden/font-size-zero",
    "/verdict/hidden/off-screen",
    "/verdict/hidden/clip-path",
    "/verdict/hidden/sr-only",
    "/verdict/hidden/collapsed-box",
    "/verdict/hidden/by-script",
    "/verdict/edge/area-hidden-image",
  ])("%s: hidden", async (path) => {
    expect(await targetSignals(path)).toEqual([expect.objectContaining({ hidden: true })]);
  });

  it.each([
    "/verdict/counts",
    "/verdict/visible/below-the-fold",
    "/verdict/visible/image-link",
    "/verdict/visible/child-visible",
    "/verdict/visible/display-contents",
    "/verdict/edge/area",
    "/verdict/carousel",
  ])("%s: visible", async (path) => {
    expect(await targetSignals(path)).toEqual([expect.objectContaining({ hidden: false })]);
  });

  it("a mark the page wrote itself is not ours: the link is judged by the pass", async () => {
    expect(await targetSignals("/verdict/edge/forged-mark")).toEqual([expect.objectContaining({ hidden: true })]);
  });
});

describe("inRawHtml and links removed by script", () => {
  it("a link in the served HTML is inRawHtml; one added by script is not", async () => {
    expect(await targetSignals("/verdict/counts")).toEqual([{ inRawHtml: true, hidden: false, region: "main" }]);
    expect(await targetSignals("/verdict/script-only")).toEqual([{ inRawHtml: false, hidden: false, region: "main" }]);
  });

  it("a link the page's script removed is not a link of the page, and is reported as removed by script", async () => {
    const report = await inspect("/verdict/removed-by-script");
    expect(report.analysis.links.map((link) => link.href)).not.toContain(site.url(VERDICT_TARGET_PATH));
    expect(report.removedByScript).toEqual([site.url(VERDICT_TARGET_PATH)]);
  });

  it("keeps the exact bytes the server sent", async () => {
    const report = await inspect("/verdict/counts");
    const served = await (await fetch(site.url("/verdict/counts"))).arrayBuffer();
    expect(report.rawHtml?.equals(Buffer.from(served))).toBe(true);
  });
});

describe("region: the nearest landmark", () => {
  it.each([
    ["/verdict/region/header", "header"],
    ["/verdict/region/nav", "nav"],
    ["/verdict/region/aside", "aside"],
    ["/verdict/region/footer", "footer"],
    ["/verdict/region/article", "main"],
    ["/verdict/edge/no-head", null],
  ] as const)("%s: %s", async (path, region) => {
    expect(await targetSignals(path)).toEqual([expect.objectContaining({ region })]);
  });

  it("paste mode has regions and nothing else", async () => {
    const report = await inspectHtml(
      {
        html: `<nav><a href="/x">x</a></nav><footer><a href="/y" style="display:none">y</a></footer>`,
        pageUrl: "https://example.com/",
      },
      { settings },
    );
    expect(report.linkSignals).toEqual([
      { inRawHtml: null, hidden: null, region: "nav" },
      { inRawHtml: null, hidden: null, region: "footer" },
    ]);
    expect(report.page).toMatchObject({ finalUrl: null, robotsTxt: null, httpStatus: null });
  });
});

describe("links the rendered document does not have", () => {
  it.each(["/verdict/edge/template", "/verdict/edge/iframe"])(
    "%s: the target is not a link of the page",
    async (path) => {
      const report = await inspect(path);
      expect(report.analysis.links.map((link) => link.href)).not.toContain(site.url(VERDICT_TARGET_PATH));
    },
  );

  it("a link in a shadow root is a link of the page (google-view.md §1), with its signals", async () => {
    expect(await targetSignals("/verdict/edge/shadow-dom")).toEqual([
      { inRawHtml: false, hidden: false, region: "main" },
    ]);
  });
});

describe("what Google captures: shadow trees and lazy content (google-view.md §1)", () => {
  /** The signals of the named links of a capture page (scripts/lib/capture-pages.ts), by name. */
  async function signalsByName(path: string) {
    const report = await inspect(path);
    return Object.fromEntries(
      report.analysis.links.flatMap((link, index) => {
        const name = new URL(link.href).pathname.replace(/^\/capture-link\//, "");
        return name === new URL(link.href).pathname ? [] : [[name, report.linkSignals[index]]];
      }),
    );
  }

  it("the hidden rule reaches into shadow trees: open, closed (attached by script or by the parser) and slotted", async () => {
    const signals = await signalsByName("/capture/shadow/hidden");
    const hidden = Object.fromEntries(Object.entries(signals).map(([name, own]) => [name, own?.hidden]));
    expect(hidden).toEqual({
      "declared-hidden": true,
      "declared-visible": false,
      "styled-hidden": true,
      "shadow-visible": false,
      "clipped-hidden": true,
      "slotted-hidden": true,
      "slotted-visible": false,
    });
    // Regions follow the flattened tree too: every one of them is inside <main>.
    expect(Object.values(signals).every((own) => own?.region === "main")).toBe(true);
  });

  it("the hidden rule keeps 1280×800 after the viewport grew: a link short screens hide is hidden, the lazy link is visible", async () => {
    const signals = await signalsByName("/capture/lazy/hidden-rule");
    expect(signals).toEqual({
      "short-screen-hidden": expect.objectContaining({ hidden: true, inRawHtml: true }),
      "lazy-visible": expect.objectContaining({ hidden: false, inRawHtml: false }),
    });
  });

  it("inRawHtml: declarative roots are in the HTML as sent, roots a script attached are not", async () => {
    const declarative = await signalsByName("/capture/shadow/declarative");
    expect(Object.keys(declarative)).toEqual(DECLARATIVE_ORDER);
    expect(Object.values(declarative).every((own) => own?.inRawHtml === true)).toBe(true);
    const scripted = await signalsByName("/capture/shadow/scripted");
    expect(Object.entries(scripted).map(([name, own]) => [name, own?.inRawHtml])).toEqual(
      SCRIPTED_ORDER.map((name) => [name, name === "s-1" || name === "s-4" || name === "s-6"]),
    );
  });
});

describe("page signals", () => {
  it.each([
    ["/verdict/noindex/meta", true, "meta"],
    ["/verdict/noindex/meta-googlebot", true, "meta"],
    ["/verdict/noindex/header", true, "header"],
    ["/verdict/noindex/header-googlebot", true, "header"],
    ["/verdict/noindex/header-repeated", true, "header"],
    ["/verdict/noindex/both", true, "header"],
    ["/verdict/noindex/header-other-bot", false, null],
    ["/verdict/counts", false, null],
  ] as const)("%s: noindex %s from %s", async (path, noindex, source) => {
    expect((await inspect(path)).page).toMatchObject({ noindex, noindexSource: source });
  });

  it("canonical: relative resolved, the first of several, and the final URL after redirects", async () => {
    expect((await inspect("/verdict/canonical/relative")).page.canonicalUrl).toBe(site.url("/verdict/counts"));
    expect((await inspect("/verdict/canonical/several-first-elsewhere")).page.canonicalUrl).toBe(
      site.url("/verdict/counts"),
    );
    expect((await inspect("/verdict/canonical/several-first-self")).page.canonicalUrl).toBe(
      site.url("/verdict/canonical/several-first-self"),
    );
    expect((await inspect("/verdict/edge/no-head")).page.canonicalUrl).toBe(site.url("/verdict/counts"));
    expect((await inspect("/verdict/edge/canonical-in-body")).page.canonicalUrl).toBeNull();
    expect((await inspect("/verdict/redirect")).page.finalUrl).toBe(site.url("/verdict/redirected-here"));
  });

  it("robots.txt for Googlebot, fetched once per origin", async () => {
    expect((await inspect("/verdict/robots-disallowed")).page.robotsTxt).toBe("disallowed");
    const before = site.hits("/robots.txt");
    expect((await inspect("/verdict/counts")).page.robotsTxt).toBe("allowed");
    expect(site.hits("/robots.txt")).toBe(before);
  });

  it("without signals asked for, none of it is computed and the public answer is the same", async () => {
    const withSignals = await inspect("/verdict/hidden/display-none");
    const plain = await inspectUrl(new URL(site.url("/verdict/hidden/display-none")), {
      settings,
      checkLinks: () => false,
    });
    expect(plain.page.robotsTxt).toBeNull();
    expect(plain.rawHtml).toBeNull();
    expect(plain.linkSignals.every((signals) => signals.hidden === null && signals.inRawHtml === null)).toBe(true);
    // The snapshot never shows the visibility pass's mark.
    expect(withSignals.analysis.sanitizedHtml).not.toContain("data-linklens-hidden");
    expect(withSignals.analysis.sanitizedHtml).toBe(plain.analysis.sanitizedHtml);
    const publicAnswer = await analyzeUrl(new URL(site.url("/verdict/hidden/display-none")), { settings });
    expect(publicAnswer.links.every((link) => !("signals" in link))).toBe(true);
  });
});
