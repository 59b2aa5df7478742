import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import type { AnalyzeDocumentInput } from "@/lib/analyzer/types";

/**
 * Golden fixtures, one folder per rule of decisions.md "Analysis definitions" (layout as in
 * mozilla/readability's test-pages): input.html, meta.json ({ pageUrl, scripting, headerNofollow? })
 * and expected.json ({ domain, url, links, stats }), compared exactly.
 */
const FIXTURES = path.resolve(__dirname, "../../fixtures");

type Meta = Omit<AnalyzeDocumentInput, "html">;

// Every folder with an input.html is a golden case (tests/fixtures/corpus/ holds real pages instead).
const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(FIXTURES, entry.name, "input.html")))
  .map((entry) => entry.name)
  .sort();

function load(name: string) {
  const dir = path.join(FIXTURES, name);
  const html = readFileSync(path.join(dir, "input.html"), "utf8");
  const meta = JSON.parse(readFileSync(path.join(dir, "meta.json"), "utf8")) as Meta;
  const expected = JSON.parse(readFileSync(path.join(dir, "expected.json"), "utf8")) as unknown;
  return { html, meta, expected };
}

describe("golden fixtures", () => {
  it("has the fixture folders", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases)("%s", (name) => {
    const { html, meta, expected } = load(name);
    const result = analyzeDocument({ html, ...meta });
    expect({ domain: result.domain, url: result.url, links: result.links, stats: result.stats }).toEqual(expected);
    // Every captured link is marked once, in order, in the snapshot (when the sanitizer keeps it).
    const marks = [...result.sanitizedHtml.matchAll(/data-linklens-position="(\d+)"/g)].map((m) => Number(m[1]));
    expect(marks).toEqual([...new Set(marks)].sort((a, b) => a - b));
  });
});

describe("rules the fixtures cannot show at a glance", () => {
  it("caps anchor text at 1,000 code points without splitting a surrogate pair", () => {
    const { html, meta } = load("anchor-text-fallbacks");
    const result = analyzeDocument({ html, ...meta });
    const long = result.links.find((link) => link.href.endsWith("/long"));
    const astral = result.links.find((link) => link.href.endsWith("/astral"));
    expect(long?.anchorText?.length).toBe(1000);
    expect([...(astral?.anchorText ?? "")].length).toBe(1000);
    expect(astral?.anchorText).toBe("😀".repeat(1000));
  });

  it("noscript: paste mode captures its links, URL mode does not", () => {
    const paste = load("noscript-paste-mode");
    const url = load("noscript-url-mode");
    expect(paste.html).toBe(url.html);
    const pasteHrefs = analyzeDocument({ html: paste.html, ...paste.meta }).links.map((link) => link.href);
    const urlHrefs = analyzeDocument({ html: url.html, ...url.meta }).links.map((link) => link.href);
    expect(pasteHrefs).toContain("https://example.com/in-noscript");
    expect(urlHrefs).not.toContain("https://example.com/in-noscript");
  });

  it("jsdom's DOMParser parses with scripting off (noscript content is markup), as paste mode relies on", async () => {
    const { parseHtml } = await import("@/lib/analyzer/document/parse");
    const doc = parseHtml("<body><noscript><a href='/x'>x</a></noscript></body>");
    expect(doc.querySelector("noscript")?.firstElementChild?.localName).toBe("a");
  });

  it("never reads page-supplied data-linklens-position as a mark", () => {
    const html = `<p data-linklens-position="1">fake</p><a href="/a" data-linklens-position="7">a</a><span data-linklens-position="2"></span>`;
    const result = analyzeDocument({ html, pageUrl: "https://example.com/", scripting: false });
    expect([...result.sanitizedHtml.matchAll(/data-linklens-position="(\d+)"/g)].map((m) => m[1])).toEqual(["1"]);
    expect(result.sanitizedHtml).toContain('<a href="/a" data-linklens-position="1">a</a>');
  });

  it("keeps noscript links visible and marked in the paste-mode snapshot", () => {
    const { html, meta } = load("noscript-paste-mode");
    const result = analyzeDocument({ html, ...meta });
    expect(result.sanitizedHtml).toContain('data-linklens-position="2"');
    expect(result.sanitizedHtml).not.toContain("<noscript");
  });

  it("uses the page URL as given for url and its host for domain", () => {
    const result = analyzeDocument({ html: "", pageUrl: "https://xn--bcher-kva.example/", scripting: false });
    expect(result).toMatchObject({
      success: true,
      domain: "xn--bcher-kva.example",
      url: "https://xn--bcher-kva.example/",
      links: [],
    });
    expect(result.stats.total).toBe(0);
  });

  it("computes broken from httpStatus: 0 and 4xx/5xx except 401, 403, 429 (999 is not broken)", async () => {
    const { computeStats } = await import("@/lib/analyzer/links/stats");
    const base = {
      href: "https://example.com/",
      position: 1,
      linkType: "internal" as const,
      anchorText: null,
      isNofollow: false,
      isSponsored: false,
      isUgc: false,
      isImage: false,
      matchedGroupName: null,
    };
    const statuses = [null, 0, 200, 301, 400, 401, 403, 404, 410, 429, 500, 503, 599, 600, 999];
    const stats = computeStats(statuses.map((httpStatus, i) => ({ ...base, position: i + 1, httpStatus })));
    // broken: 0, 400, 404, 410, 500, 503, 599
    expect(stats.broken).toBe(7);
  });
});
