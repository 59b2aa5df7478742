import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import type { AnalysisResult } from "@/lib/analyzer/types";

/** Whatever the markup, the result has the public shape and the statistics add up. */
function expectWellFormed(result: AnalysisResult): void {
  expect(Object.keys(result).sort()).toEqual(["domain", "links", "sanitizedHtml", "stats", "success", "url"]);
  const { stats, links } = result;
  expect(stats.total).toBe(links.length);
  expect(stats.internal + stats.external + stats.ignored).toBe(stats.total);
  const followable = links.filter((link) => link.linkType !== "ignored");
  expect(stats.follow).toBe(followable.filter((link) => !link.isNofollow && !link.isSponsored && !link.isUgc).length);
  expect(stats.nofollow).toBe(followable.filter((link) => link.isNofollow).length);
  links.forEach((link, index) => {
    expect(Object.keys(link).sort()).toEqual([
      "anchorText",
      "href",
      "httpStatus",
      "isImage",
      "isNofollow",
      "isSponsored",
      "isUgc",
      "linkType",
      "matchedGroupName",
      "position",
    ]);
    expect(link.position).toBe(index + 1);
    expect(["internal", "external", "ignored"]).toContain(link.linkType);
    expect(typeof link.href).toBe("string");
    for (const flag of [link.isNofollow, link.isSponsored, link.isUgc, link.isImage])
      expect(typeof flag).toBe("boolean");
    expect(link.anchorText === null || (link.anchorText.length > 0 && [...link.anchorText].length <= 1000)).toBe(true);
    if (link.linkType !== "ignored") expect(link.href).toMatch(/^https?:\/\//);
  });
  expect(result.sanitizedHtml).not.toMatch(/<script/i);
}

const hrefs = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "#",
    "#x",
    "/",
    "/a b",
    "?q",
    "mailto:x@y",
    "javascript:alert(1)",
    "http://exa mple.com",
    "https://[::1",
    "//other.org/",
    "https://www.example.com:8080/p",
    "HTTPS://EXAMPLE.COM/#f",
    "http://192.168.1.1/",
    "http://intranet/",
    "https://a.github.io/",
    "data:,x",
    "ftp://x/",
  ),
  fc.webUrl(),
  fc.string({ maxLength: 20 }),
);
const rels = fc.option(
  fc.constantFrom("nofollow", "NoFollow", "sponsored,ugc", "ugc noopener", " ", "nofollow sponsored ugc", "x"),
  { nil: undefined },
);
const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const link = fc
  .record({
    tag: fc.constantFrom("a", "area", "A"),
    href: hrefs,
    rel: rels,
    text: fc.string({ maxLength: 30 }),
    img: fc.boolean(),
  })
  .map(
    ({ tag, href, rel, text, img }) =>
      `<${tag} href="${escape(href)}"${rel === undefined ? "" : ` rel="${rel}"`}>${escape(text)}${img ? '<img alt="i">' : ""}</${tag}>`,
  );
const wrapper = fc.constantFrom(
  "div",
  "p",
  "table",
  "td",
  "li",
  "noscript",
  "template",
  "svg",
  "math",
  "select",
  "form",
  "b",
  "span",
  "x-widget",
  "iframe",
  "script",
  "style",
  "textarea",
  "title",
);
const soup: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    link,
    fc.string({ maxLength: 20 }),
    fc.constantFrom(
      "<base href='/b/'>",
      "<meta name=robots content=nofollow>",
      "<!-- c -->",
      "</a>",
      "<a>",
      "&amp;",
      "<",
      "<![CDATA[x]]>",
      "<br/>",
    ),
    fc
      .tuple(wrapper, fc.array(tie("node"), { maxLength: 4 }))
      .map(([tag, children]) => `<${tag}>${children.join("")}</${tag}>`),
  ),
})).node;

describe("property: any markup gives a well-formed result", () => {
  it("random strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.boolean(), (html, scripting) => {
        expectWellFormed(analyzeDocument({ html, pageUrl: "https://example.com/", scripting }));
      }),
      { numRuns: 300 },
    );
  });

  it("link soup", () => {
    fc.assert(
      fc.property(
        fc.array(soup, { maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom("https://example.com/", "http://192.168.1.1/", "https://a.github.io/x"),
        (nodes, scripting, pageUrl) => {
          const result = analyzeDocument({ html: nodes.join(""), pageUrl, scripting });
          expectWellFormed(result);
          expect(result.url).toBe(pageUrl);
        },
      ),
      { numRuns: 300 },
    );
  });
});
