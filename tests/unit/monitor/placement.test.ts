import { describe, expect, it } from "vitest";
import type { AnalyzedLink, LinkSignals, PageReport } from "@/lib/analyzer";
import { currentLink, findPlacement, judgeLink, pageFacts, verdictAfter } from "@/lib/monitor/placement";
import type { TrackedLinkRow } from "@/lib/monitor/views";
import type { GoogleReading } from "@/lib/verdict";

/** A check's placement of a tracked link (lib/monitor/placement.ts): matches, best match, removed by script, page facts. */

function link(position: number, href: string, extra: Partial<AnalyzedLink> = {}): AnalyzedLink {
  return {
    href,
    position,
    linkType: "external",
    anchorText: "My site",
    isNofollow: false,
    isSponsored: false,
    isUgc: false,
    isImage: false,
    httpStatus: 200,
    matchedGroupName: null,
    ...extra,
  };
}
const MAIN: LinkSignals = { inRawHtml: true, hidden: false, region: "main" };

function report(
  links: [AnalyzedLink, LinkSignals][],
  page: Partial<PageReport["page"]> = {},
  removedByScript: string[] | null = [],
): PageReport {
  return {
    analysis: {
      success: true,
      sanitizedHtml: "",
      links: links.map(([item]) => item),
      stats: {
        total: 0,
        internal: 0,
        external: 0,
        ignored: 0,
        follow: 0,
        nofollow: 0,
        sponsored: 0,
        ugc: 0,
        broken: 0,
      },
      domain: "blog.example",
      url: "https://blog.example/post",
    },
    page: {
      title: null,
      noindex: false,
      noindexSource: null,
      canonicalUrl: null,
      challenge: false,
      httpStatus: 200,
      finalUrl: "https://blog.example/post",
      robotsTxt: "allowed",
      crawlers: null,
      robotsTxtReadAt: null,
      ...page,
    },
    linkSignals: links.map(([, signals]) => signals),
    removedByScript,
    rawHtml: null,
    camera: null,
  };
}
const tracked = (extra: { expectedRel?: "follow" | "nofollow" | null; expectedAnchor?: string | null } = {}) => ({
  target: "https://mysite.example/",
  match: "domain" as const,
  expectedRel: null,
  expectedAnchor: null,
  ...extra,
});
const place = (given: PageReport, extra = {}) =>
  findPlacement(given, tracked(extra), pageFacts(given, "https://blog.example/post"));

describe("findPlacement", () => {
  it("the best match: the first that counts, after a footer link and a hidden one", () => {
    const given = report([
      [link(1, "https://mysite.example/a"), { ...MAIN, region: "footer" }],
      [link(2, "https://mysite.example/b"), { ...MAIN, hidden: true }],
      [link(3, "https://mysite.example/c"), MAIN],
      [link(4, "https://other.example/"), MAIN],
    ]);
    expect(place(given)).toEqual({
      seen: given.analysis.links[2],
      signals: { ...MAIN, inGoogleView: null },
      matchCount: 3,
      removedByScript: false,
      google: null,
    });
  });

  it("else the first at risk, else the first; ignored links never match", () => {
    const risky = report([
      [link(1, "https://mysite.example/a", { isNofollow: true }), MAIN],
      [link(2, "https://mysite.example/b"), { ...MAIN, inRawHtml: false }],
    ]);
    expect(place(risky).seen?.position).toBe(2);
    const none = report([
      [link(1, "https://mysite.example/a", { isNofollow: true }), MAIN],
      [link(2, "https://mysite.example/b", { httpStatus: 404 }), MAIN],
      [link(3, "https://mysite.example/c", { linkType: "ignored" }), MAIN],
    ]);
    expect(place(none)).toMatchObject({ matchCount: 2, seen: { position: 1 } });
  });

  it("among equal verdicts, the one meeting the expectations", () => {
    const given = report([
      [link(1, "https://mysite.example/a", { isNofollow: true }), MAIN],
      [link(2, "https://mysite.example/b", { isNofollow: true, anchorText: "Expected" }), MAIN],
    ]);
    expect(place(given, { expectedAnchor: "expected" }).seen?.position).toBe(2);
  });

  it("missing: removed by script when a raw link matched, and the kept current link stays", () => {
    const gone = report([[link(1, "https://other.example/"), MAIN]], {}, ["https://mysite.example/paid"]);
    const placement = place(gone);
    expect(placement).toEqual({
      seen: null,
      signals: { inRawHtml: null, hidden: null, region: null, inGoogleView: null },
      matchCount: 0,
      removedByScript: true,
      google: null,
    });
    const kept = { ...link(7, "https://mysite.example/x"), signals: { ...MAIN, inGoogleView: null } };
    expect(currentLink(placement, kept)).toBe(kept);
    expect(place(report([], {}, null)).removedByScript).toBe(false);
    // Confirmed missing, seen before or never (placement-verdict.md): the verdict says so, with the script.
    expect(verdictAfter(placement, pageFacts(gone, "https://blog.example/post"), null, "missing").verdict).toEqual({
      value: "does_not_count",
      reasons: ["missing", "removed_by_script"],
    });
    // A first miss (still pending) keeps no verdict.
    expect(verdictAfter(placement, pageFacts(gone, "https://blog.example/post"), null, "pending").verdict).toBeNull();
  });
});

describe("pageFacts", () => {
  it("noindex, robots.txt, canonical elsewhere and a redirect away from the monitored URL", () => {
    const given = report([], {
      noindex: true,
      robotsTxt: "disallowed",
      canonicalUrl: "https://blog.example/other",
      finalUrl: "https://blog.example/moved/",
    });
    expect(pageFacts(given, "https://blog.example/post")).toEqual({
      noindex: true,
      robotsTxt: "disallowed",
      canonicalElsewhere: true,
      redirected: true,
    });
    expect(
      pageFacts(report([], { canonicalUrl: "https://blog.example/post/" }), "https://blog.example/post#x"),
    ).toEqual({ noindex: false, robotsTxt: "allowed", canonicalElsewhere: false, redirected: false });
  });
});

describe("findPlacement with Google's view (google-view.md §2)", () => {
  const view = (hrefs: string[] | null, over: Partial<GoogleReading["view"]> = {}): GoogleReading => ({
    view: {
      status: hrefs ? "ok" : "unavailable",
      httpStatus: hrefs ? 200 : 403,
      finalUrl: "https://blog.example/post",
      noindex: hrefs ? false : null,
      linkCount: hrefs ? hrefs.length : null,
      renderedAt: "2030-01-01T00:00:00.000Z",
      ...over,
    },
    hrefs,
  });
  const given = report([[link(1, "https://mysite.example/a"), MAIN]]);
  const facts = pageFacts(given, "https://blog.example/post");
  const placeWith = (reading: GoogleReading | null, on = given) => findPlacement(on, tracked(), facts, reading);

  it.each([
    ["in Googlebot's render", view(["https://mysite.example/a"]), true, []],
    ["absent from it", view(["https://other.example/"]), false, ["not_in_google_view"]],
    ["unavailable (a 403 for Googlebot)", view(null), null, []],
    ["off or not rendered", null, null, []],
    ["noindex for Googlebot only", view(["https://mysite.example/a"], { noindex: true }), true, ["page_noindex"]],
  ] as const)("present for a visitor, %s", (_name, reading, inGoogleView, reasons) => {
    const placement = placeWith(reading);
    expect(placement.signals.inGoogleView).toBe(inGoogleView);
    expect(verdictAfter(placement, facts, null, "live").verdict).toEqual({
      value: reasons.length > 0 ? "does_not_count" : "counts",
      reasons,
    });
  });

  it("missing for a visitor, a match in Googlebot's render: shown_only_to_googlebot once the loss is confirmed", () => {
    const gone = report([[link(1, "https://other.example/"), MAIN]]);
    const placement = placeWith(view(["https://mysite.example/pricing"]), gone);
    expect(placement.google).toEqual({ noindex: false, hasMatch: true });
    expect(verdictAfter(placement, facts, null, "missing").verdict).toEqual({
      value: "does_not_count",
      reasons: ["missing", "shown_only_to_googlebot"],
    });
    expect(verdictAfter(placeWith(view(null), gone), facts, null, "missing").verdict?.reasons).toEqual(["missing"]);
  });

  it("judgeLink reads the Google view it is given", () => {
    const row = {
      target: "https://mysite.example/",
      match: "domain",
      expectedRel: null,
      expectedAnchor: null,
      state: "live",
      pendingState: null,
      pendingCount: 0,
      current: null,
      verdict: null,
    } as unknown as TrackedLinkRow;
    expect(judgeLink(row, given, facts, 2, view([])).verdict.verdict?.reasons).toEqual(["not_in_google_view"]);
    expect(judgeLink(row, given, facts, 2, null).verdict.verdict?.reasons).toEqual([]);
  });
});
