import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/errors";
import type { AnalysisResult, AnalyzedLink } from "../../../lib/analyzer/types";
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
  stats: { total: LINKS.length, internal: 0, external: 8, ignored: 1, follow: 5, nofollow: 1, sponsored: 1, ugc: 1, broken: 0 },
  domain: "publisher.example",
  url: "https://publisher.example/",
};

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

  it.each(["mailto:me@mysite.example", "ftp://mysite.example/", "https://user:pw@mysite.example/", "http://", "javascript:alert(1)", "https://exa mple.com/"])(
    "refuses %s with INVALID_REQUEST",
    (target) => {
      let thrown: unknown;
      try {
        parseTarget(target, undefined);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).code).toBe("INVALID_REQUEST");
      expect((thrown as ApiError).message).toMatch(/^target:/);
    },
  );
});

describe("findLink", () => {
  const positions = (target: string, match?: "exact" | "prefix" | "domain") => findLink(RESULT, parseTarget(target, match)).matches.map((found) => found.position);

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
    const result = findLink(RESULT, parseTarget("mysite.example", undefined));
    expect(result.found).toBe(true);
    expect(result.matches.map((found) => [found.position, found.followed])).toEqual([
      [1, false],
      [2, true],
      [3, false],
      [4, true],
      [9, false],
    ]);
    expect(result.summary).toBe(
      'Found 5 link(s) matching https://mysite.example/ (domain match): 2 followed, 3 not followed. First at position 1: https://mysite.example/page?ref=1#top, nofollow, anchor "link 1", HTTP status not checked.',
    );
    expect(result.sameHostLinks).toBeUndefined();
  });

  it("answers not found with the near misses on the target's host", () => {
    const result = findLink(RESULT, parseTarget("https://mysite.example/pricing", undefined));
    expect(result).toMatchObject({ found: false, match: "exact", matches: [], linksOnPage: 9 });
    expect(result.sameHostLinks?.map((found) => found.position)).toEqual([1, 2, 3, 4, 9]);
    expect(result.summary).toMatch(/^Not found: none of the 9 links on https:\/\/publisher\.example\/ matches https:\/\/mysite\.example\/pricing \(exact match\)\. 5 link\(s\) do point to mysite\.example/);
  });
});
