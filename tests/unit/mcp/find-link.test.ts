import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/errors";
import type { AnalysisResult, AnalyzedLink, LinkSignals, PageReport } from "../../../lib/analyzer/types";
import { findLink, parseTarget } from "../../../lib/mcp/find-link";

function link(position: number, href: string, flags: Partial<AnalyzedLink> = {}): AnalyzedLink {
  return {
    href,
    position,
    linkType: href.startsWith("http") ? "external" : "ignored",
    anchorText: `link ${position}`,
    isNofollow: false,
    isSponsored: false,
    isUgc: false,
    isImage: false,
    httpStatus: null,
    matchedGroupName: null,
    ...flags,
  };
}

const LINKS = [
  link(1, "https://mysite.example/page?ref=1#top", { isNofollow: true }),
  link(2, "http://www.mysite.example/page/"),
  link(3, "https://blog.mysite.example/post", { isSponsored: true }),
  link(4, "https://mysite.example:8443/page"),
  link(5, "https://notmysite.example/page"),
  link(6, "https://mysite.example.evil.example/page"),
  link(7, "mailto:me@mysite.example"),
  link(8, "https://xn--bcher-kva.example/"),
  link(9, "https://mysite.example/page/sub", { isUgc: true }),
];
const RESULT: AnalysisResult = {
  success: true,
  sanitizedHtml: "",
  links: LINKS,
  stats: {
    total: LINKS.length,
    internal: 0,
    external: 8,
    ignored: 1,
    follow: 5,
    nofollow: 1,
    sponsored: 1,
    ugc: 1,
    broken: 0,
  },
  domain: "publisher.example",
  url: "https://publisher.example/",
};

/** The report of a paste-mode analysis of RESULT's page: regions known, nothing rendered or fetched. */
function pasteReport(
  result: AnalysisResult,
  signals: (link: AnalyzedLink) => Partial<LinkSignals> = () => ({}),
): PageReport {
  return {
    analysis: result,
    page: {
      title: null,
      noindex: false,
      noindexSource: null,
      canonicalUrl: null,
      challenge: false,
      httpStatus: null,
      finalUrl: null,
      robotsTxt: null,
      crawlers: null,
      robotsTxtReadAt: null,
    },
    linkSignals: result.links.map((link) => ({ inRawHtml: null, hidden: null, region: null, ...signals(link) })),
    removedByScript: null,
    rawHtml: null,
    camera: null,
  };
}
const REPORT = pasteReport(RESULT);

describe("parseTarget", () => {
  it.each([
    ["https://mysite.example/page", undefined, "https://mysite.example/page", "exact"],
    ["mysite.example/page?x=1", undefined, "https://mysite.example/page?x=1", "exact"],
    ["mysite.example", undefined, "https://mysite.example/", "domain"],
    ["https://mysite.example/", undefined, "https://mysite.example/", "domain"],
    ["//mysite.example", "prefix", "https://mysite.example/", "prefix"],
    ["mysite.example:8443/page", undefined, "https://mysite.example:8443/page", "exact"],
    ["  Bücher.example ", undefined, "https://xn--bcher-kva.example/", "domain"],
  ] as const)("%s (match %s) → %s, %s", (target, match, href, expectedMatch) => {
    const parsed = parseTarget(target, match);
    expect([parsed.url.href, parsed.match]).toEqual([href, expectedMatch]);
  });

  it.each([
    "mailto:me@mysite.example",
    "ftp://mysite.example/",
    "https://user:pw@mysite.example/",
    "http://",
    "javascript:alert(1)",
    "https://exa mple.com/",
  ])("refuses %s with INVALID_REQUEST", (target) => {
    let thrown: unknown;
    try {
      parseTarget(target, undefined);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe("INVALID_REQUEST");
    expect((thrown as ApiError).message).toMatch(/^target:/);
  });
});

describe("findLink", () => {
  const positions = (target: string, match?: "exact" | "prefix" | "domain") =>
    findLink(REPORT, parseTarget(target, match)).matches.map((found) => found.position);

  it.each([
    // exact: scheme, www., fragment and a trailing slash do not matter; port, path and query do.
    ["https://mysite.example/page?ref=1", "exact", [1]],
    ["https://mysite.example/page", "exact", [2]],
    ["http://www.mysite.example/page/", "exact", [2]],
    ["https://mysite.example:8443/page", "exact", [4]],
    // prefix: on the path as written.
    ["https://mysite.example/page", "prefix", [1, 2, 9]],
    ["https://mysite.example/page/", "prefix", [2, 9]],
    // domain: the host or a subdomain, never a look-alike or a mailto:.
    ["mysite.example", "domain", [1, 2, 3, 4, 9]],
    ["www.mysite.example", "domain", [1, 2, 3, 4, 9]],
    ["blog.mysite.example", "domain", [3]],
    ["bücher.example", "domain", [8]],
    ["other.example", "domain", []],
  ] as const)("%s by %s → %j", (target, match, expected) => {
    expect(positions(target, match)).toEqual(expected);
  });

  it("marks followed links and says so", () => {
    const result = findLink(REPORT, parseTarget("mysite.example", undefined));
    expect(result.found).toBe(true);
    expect(result.matches.map((found) => [found.position, found.followed])).toEqual([
      [1, false],
      [2, true],
      [3, false],
      [4, true],
      [9, false],
    ]);
    expect(result.summary).toBe(
      'Found 5 link(s) matching https://mysite.example/ (domain match): 2 followed, 3 not followed. First at position 1: https://mysite.example/page?ref=1#top, nofollow, anchor "link 1", HTTP status not checked. Verdict (best match, position 2): Counts.',
    );
    // The best match is the first that counts; every match carries its signals.
    expect(result.verdict).toEqual({ position: 2, value: "counts", reasons: [] });
    expect(result.matches[0]?.signals).toEqual({ inRawHtml: null, hidden: null, region: null, inGoogleView: null });
    expect(result.sameHostLinks).toBeUndefined();
  });

  it("gives the best match's verdict with its reasons: the first that counts, else the first at risk", () => {
    const footer = pasteReport(RESULT, (link) => ({ region: link.position === 2 ? "footer" : "main" }));
    const atRisk = findLink(footer, parseTarget("mysite.example", undefined));
    // Position 4 counts (main); 2 is a follow link in the footer (at risk); 1, 3 and 9 carry rel flags.
    expect(atRisk.verdict).toEqual({ position: 4, value: "counts", reasons: [] });
    const onlyRisky = findLink(footer, parseTarget("https://mysite.example/page", "exact"));
    expect(onlyRisky.verdict).toEqual({ position: 2, value: "at_risk", reasons: ["boilerplate_region"] });
    expect(onlyRisky.summary).toContain(
      "Verdict (best match, position 2): At risk — Link in a header, navigation, sidebar or footer.",
    );
    const noindex = { ...REPORT, page: { ...REPORT.page, noindex: true, noindexSource: "meta" as const } };
    expect(findLink(noindex, parseTarget("https://mysite.example/page?ref=1", "exact")).verdict).toEqual({
      position: 1,
      value: "does_not_count",
      reasons: ["nofollow", "page_noindex"],
    });
    expect(findLink(noindex, parseTarget("https://mysite.example/page?ref=1", "exact")).page).toMatchObject({
      noindex: true,
      noindexSource: "meta",
      finalUrl: null,
      robotsTxt: null,
      canonicalElsewhere: null,
    });
  });

  it("answers not found with the near misses on the target's host", () => {
    const result = findLink(REPORT, parseTarget("https://mysite.example/pricing", undefined));
    expect(result).toMatchObject({ found: false, match: "exact", matches: [], linksOnPage: 9, verdict: null });
    expect(result.sameHostLinks?.map((found) => found.position)).toEqual([1, 2, 3, 4, 9]);
    expect(result.summary).toMatch(
      /^Not found: none of the 9 links on https:\/\/publisher\.example\/ matches https:\/\/mysite\.example\/pricing \(exact match\)\. 5 link\(s\) do point to mysite\.example/,
    );
  });
});
