import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import type { AnalysisResult } from "@/lib/analyzer/types";
import { SAMPLE_CORPUS_DIR, sharedCorpusDir } from "@/scripts/lib/corpus";

/**
 * Real pages: every one analyses, the statistics' identities hold, positions run 1..n, and pages are
 * checked against counts taken by hand (cross-checked with an independent tokenizer, Python's
 * html.parser). The vendored sample (tests/fixtures/corpus, 11 pages) always runs, so a bare clone
 * tests real markup; the full 170-page corpus in ../shared/corpus runs too when it sits beside the
 * repository (here and in CI).
 */
const SAMPLE = SAMPLE_CORPUS_DIR;
// "" (never read) on a bare clone: the full corpus's tests below do not run there.
const FULL = sharedCorpusDir() ?? "";
const hasFullCorpus = FULL !== "";

const htmlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".html"))
    .sort();
const samplePages = htmlFiles(SAMPLE);
const fullPages = hasFullCorpus ? htmlFiles(FULL) : [];

/** `<host>.html` or `<host>--<variant>.html`: the host is the page's own, passed as domain. */
function hostOf(file: string): string {
  return file.replace(/\.html$/, "").split("--")[0] ?? file;
}

function analyse(file: string, dir = SAMPLE): AnalysisResult {
  const html = readFileSync(path.join(dir, file), "utf8");
  return analyzeDocument({ html, pageUrl: `https://${hostOf(file)}/`, scripting: false });
}

/** The identities of `stats` (decisions.md "Analysis definitions"), recomputed independently from the links. */
function expectConsistent(result: AnalysisResult): void {
  const { links, stats } = result;
  const followable = links.filter((link) => link.linkType !== "ignored");
  expect(stats.total).toBe(links.length);
  expect(stats.internal + stats.external + stats.ignored).toBe(stats.total);
  expect(stats.internal).toBe(links.filter((link) => link.linkType === "internal").length);
  expect(stats.external).toBe(links.filter((link) => link.linkType === "external").length);
  expect(stats.nofollow).toBe(followable.filter((link) => link.isNofollow).length);
  expect(stats.sponsored).toBe(followable.filter((link) => link.isSponsored).length);
  expect(stats.ugc).toBe(followable.filter((link) => link.isUgc).length);
  expect(stats.follow).toBe(followable.filter((link) => !link.isNofollow && !link.isSponsored && !link.isUgc).length);
  expect(stats.broken).toBe(0);
  expect(links.map((link) => link.position)).toEqual(links.map((_, index) => index + 1));
  for (const link of links) {
    expect(link.httpStatus).toBeNull();
    expect(link.matchedGroupName).toBeNull();
    if (link.anchorText !== null) {
      expect(link.anchorText).toBe(link.anchorText.trim());
      expect([...link.anchorText].length).toBeLessThanOrEqual(1000);
    }
  }
  const marks = [...result.sanitizedHtml.matchAll(/data-linklens-position="(\d+)"/g)].map((match) => Number(match[1]));
  expect(new Set(marks).size).toBe(marks.length);
  expect(marks.every((mark) => mark >= 1 && mark <= links.length)).toBe(true);
  expect(result.sanitizedHtml).not.toMatch(/<script/i);
}

/** Analyses pages in groups, so one slow page does not hit the per-test timeout. */
function describePages(dir: string, pages: readonly string[]): void {
  const groups = Array.from({ length: Math.ceil(pages.length / 10) }, (_, index) =>
    pages.slice(index * 10, index * 10 + 10),
  );
  it.each(groups.map((group) => [group[0], group] as const))(
    "pages from %s analyse consistently",
    (_first, group) => {
      for (const file of group) {
        const result = analyse(file, dir);
        expect(result.domain).toBe(hostOf(file));
        expectConsistent(result);
      }
    },
    300_000,
  );
}

describe("vendored real-page sample (always runs)", () => {
  it("holds the 11 pages, each a subset of the full corpus when present", () => {
    expect(samplePages.length).toBe(11);
    if (hasFullCorpus) for (const file of samplePages) expect(fullPages).toContain(file);
  });
  describePages(SAMPLE, samplePages);
});

// The full corpus is optional by design (it lives outside the repository); the sample above keeps the
// real-page test meaningful without it.
describe.runIf(hasFullCorpus)("full real-page corpus (beside the repository)", () => {
  it("holds the 170 pages", () => {
    expect(fullPages.length).toBe(170);
  });
  describePages(FULL, fullPages);

  it("github.com: 123 links, skip link ignored, three rel=nofollow links", () => {
    const result = analyse("github.com.html", FULL);
    expect(result.stats.total).toBe(123);
    expect(result.links[0]).toMatchObject({
      href: "https://github.com/#start-of-content",
      linkType: "ignored",
      anchorText: "Skip to content",
    });
    expect(result.links[1]).toMatchObject({
      href: "https://github.com/",
      linkType: "internal",
      anchorText: "Homepage",
    });
    expect(
      result.links.filter((link) => link.isNofollow).map((link) => [link.position, link.linkType, link.anchorText]),
    ).toEqual([
      [48, "internal", "master default"],
      [61, "internal", "Download ZIP"],
      [92, "external", "screenshot"],
    ]);
  });
});

describe("hand-checked pages", () => {
  it("ma.ttias.be: 109 links, none nofollow, navigation first", () => {
    const result = analyse("ma.ttias.be.html");
    expect(result.stats).toMatchObject({ total: 109, internal: 12, external: 67, ignored: 30, nofollow: 0 });
    expect(result.links.slice(0, 3).map((link) => [link.href, link.linkType, link.anchorText])).toEqual([
      ["https://ma.ttias.be/", "internal", "Mattias Geniar"],
      ["https://ma.ttias.be/blog/", "internal", "Blog"],
      ["https://ma.ttias.be/cronweekly/", "internal", "Newsletter"],
    ]);
  });

  it("postlight.com: 55 links, the two share buttons are external nofollow without text", () => {
    const result = analyse("postlight.com.html");
    expect(result.stats).toMatchObject({ total: 55, nofollow: 2 });
    const shares = result.links.filter((link) => link.isNofollow);
    expect(shares.map((link) => [link.position, link.linkType, link.anchorText, new URL(link.href).hostname])).toEqual([
      [14, "external", null, "www.facebook.com"],
      [15, "external", null, "twitter.com"],
    ]);
    // The GTM <noscript><iframe> is gone from the snapshot; the noscript stylesheet link is too.
    expect(result.sanitizedHtml).not.toMatch(/<iframe|<link/i);
  });
});
