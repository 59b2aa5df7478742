import { describe, expect, it } from "vitest";
import { GOOGLE_VIEW_DIFF_MAX } from "@/lib/schemas/google-view";
import { compareViews, googleFacts, readingOf, withGoogleView, type GoogleReading } from "@/lib/verdict";

/** Google's view beside the visitor's (lib/verdict/google-view.ts): inGoogleView, the facts the verdict reads, the panel. */

const reading = (hrefs: string[] | null): GoogleReading => ({
  view: {
    status: hrefs ? "ok" : "unavailable",
    httpStatus: hrefs ? 200 : 403,
    finalUrl: "https://blog.example/",
    noindex: hrefs ? false : null,
    linkCount: hrefs ? hrefs.length : null,
    renderedAt: "2030-01-01T00:00:00.000Z",
  },
  hrefs,
});
const links = (...hrefs: string[]) => hrefs.map((href) => ({ href }));
const SIGNALS = { inRawHtml: true, hidden: false, region: "main" as const };

describe("withGoogleView", () => {
  it("true when the same resolved href is in Googlebot's render, false when not; null for every link without a usable view", () => {
    const visitor = links("https://a.example/", "https://b.example/");
    const signals = [SIGNALS, SIGNALS];
    expect(withGoogleView(visitor, signals, reading(["https://a.example/"])).map((s) => s.inGoogleView)).toEqual([
      true,
      false,
    ]);
    expect(withGoogleView(visitor, signals, reading(null)).map((s) => s.inGoogleView)).toEqual([null, null]);
    expect(withGoogleView(visitor, signals, null).map((s) => s.inGoogleView)).toEqual([null, null]);
    // Signals the analyzer did not give (an older report) are unknown.
    expect(withGoogleView(visitor, [], null)[0]).toEqual({
      inRawHtml: null,
      hidden: null,
      region: null,
      inGoogleView: null,
    });
  });
});

describe("googleFacts", () => {
  it("noindex and whether a match is there; null when unavailable or absent", () => {
    const matches = (href: string) => href.startsWith("https://mysite.example/");
    expect(googleFacts(reading(["https://mysite.example/x"]), matches)).toEqual({ noindex: false, hasMatch: true });
    expect(googleFacts(reading(["https://other.example/"]), matches)).toEqual({ noindex: false, hasMatch: false });
    expect(googleFacts(reading(null), matches)).toBeNull();
    expect(googleFacts(null, matches)).toBeNull();
  });
});

describe("readingOf", () => {
  it("an ok render keeps its unique hrefs in page order and its link count; an unavailable one neither", () => {
    const at = new Date("2030-02-03T04:05:06.000Z");
    expect(
      readingOf({
        status: "ok",
        httpStatus: 200,
        finalUrl: "https://blog.example/",
        noindex: true,
        links: links("https://b.example/", "https://a.example/", "https://b.example/"),
        renderedAt: at,
      }),
    ).toEqual({
      view: {
        status: "ok",
        httpStatus: 200,
        finalUrl: "https://blog.example/",
        noindex: true,
        linkCount: 3,
        renderedAt: at.toISOString(),
      },
      hrefs: ["https://b.example/", "https://a.example/"],
    });
    expect(
      readingOf({ status: "unavailable", httpStatus: 403, finalUrl: null, noindex: true, links: null, renderedAt: at }),
    ).toEqual({
      view: {
        status: "unavailable",
        httpStatus: 403,
        finalUrl: null,
        noindex: null,
        linkCount: null,
        renderedAt: at.toISOString(),
      },
      hrefs: null,
    });
  });
});

describe("compareViews (the panel)", () => {
  it("the unique hrefs only one render has, in page order, the counts whole and the lists capped", () => {
    const compared = compareViews(
      links("https://v.example/", "https://both.example/", "https://v.example/"),
      reading(["https://both.example/", "https://g.example/"]),
    );
    expect(compared).toEqual({
      visitorLinks: 3,
      googleLinks: 2,
      onlyVisitorCount: 1,
      onlyVisitor: ["https://v.example/"],
      onlyGoogleCount: 1,
      onlyGoogle: ["https://g.example/"],
    });
    const many = Array.from({ length: GOOGLE_VIEW_DIFF_MAX + 5 }, (_, i) => `https://g.example/${i}`);
    const capped = compareViews([], reading(many));
    expect(capped?.onlyGoogleCount).toBe(GOOGLE_VIEW_DIFF_MAX + 5);
    expect(capped?.onlyGoogle).toHaveLength(GOOGLE_VIEW_DIFF_MAX);
    expect(compareViews(links("https://v.example/"), reading(null))).toBeNull();
    expect(compareViews(links("https://v.example/"), null)).toBeNull();
  });
});
