import { describe, expect, it } from "vitest";
import { documentLooksLikeChallenge, headersSayChallenge } from "@/lib/analyzer/challenge";
import { siteOf } from "@/lib/analyzer/links/classify";
import { analyzeDocument, inspectDocument } from "@/lib/analyzer/pipeline";
import { robotsHeaderNoindex } from "@/lib/analyzer/robots/directives";

const page = (body: string, head = "") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe("domain groups in classification", () => {
  const html = page(`
    <a href="https://shop.sister.example/p">sister shop</a>
    <a href="https://www.mine.example/about">own site</a>
    <a href="https://outsider.example/">outsider</a>
    <a href="https://other-group.example/">other group</a>
    <a href="mailto:x@mine.example">mail</a>`);
  const groups = { "mine.example": "Network", "sister.example": "Network", "other-group.example": "Partners" };

  it("classifies links to sister sites as internal, naming the group, and counts them as internal", () => {
    const { links, stats } = analyzeDocument({
      html,
      pageUrl: "https://blog.mine.example/post",
      scripting: false,
      groups,
    });
    expect(links.map((link) => [link.linkType, link.matchedGroupName])).toEqual([
      ["internal", "Network"],
      ["internal", null], // the page's own site is internal without help
      ["external", null],
      ["external", null], // in a group, but not the page's group
      ["ignored", null],
    ]);
    expect(stats).toMatchObject({ total: 5, internal: 2, external: 2, ignored: 1 });
  });

  it("changes nothing without groups, or when the page's site is in no group", () => {
    const plain = analyzeDocument({ html, pageUrl: "https://blog.mine.example/post", scripting: false });
    expect(plain.links.map((link) => link.linkType)).toEqual([
      "external",
      "internal",
      "external",
      "external",
      "ignored",
    ]);
    expect(plain.links.every((link) => link.matchedGroupName === null)).toBe(true);
    const elsewhere = analyzeDocument({ html, pageUrl: "https://unrelated.example/", scripting: false, groups });
    expect(elsewhere.links.map((link) => link.matchedGroupName)).toEqual([null, null, null, null, null]);
    expect(elsewhere.stats.internal).toBe(0);
  });

  it("never matches prototype keys of the lookup", () => {
    const result = analyzeDocument({
      html: page('<a href="https://constructor/">x</a>'),
      pageUrl: "https://toString/",
      scripting: false,
      groups: {},
    });
    expect(result.links[0]?.matchedGroupName).toBeNull();
  });

  it("keys sites by registrable domain, private suffixes included, and IPs by themselves", () => {
    expect(siteOf("WWW.Example.CO.UK.")).toBe("example.co.uk");
    expect(siteOf("a.github.io")).toBe("a.github.io");
    expect(siteOf("192.0.2.7")).toBe("192.0.2.7");
    expect(siteOf("intranet")).toBe("intranet");
  });
});

describe("page signals", () => {
  it("reads the title, meta noindex and the canonical URL against the base", () => {
    const { signals } = inspectDocument({
      html: page(
        "",
        `<title>  A   post </title><base href="https://cdn.example/x/"><meta name="ROBOTS" content="max-snippet:-1, NoIndex"><link rel="alternate canonical" href="../post?a=1#top"><link rel=canonical href=/second>`,
      ),
      pageUrl: "https://blog.example/post",
      scripting: false,
    });
    expect(signals).toEqual({
      title: "A post",
      noindex: true,
      canonicalUrl: "https://cdn.example/post?a=1#top",
      challenge: false,
    });
  });

  it("reads the canonical of <head> only (an implied head counts), the first of several", () => {
    const canonical = (html: string) =>
      inspectDocument({ html, pageUrl: "https://blog.example/post", scripting: false }).signals.canonicalUrl;
    expect(canonical(`<title>t</title><link rel=canonical href=/a><link rel=canonical href=/b><p>x</p>`)).toBe(
      "https://blog.example/a",
    );
    expect(canonical(`<title>t</title><p>x</p><link rel=canonical href=/a>`)).toBeNull();
    expect(canonical(page("", `<p>x</p><link rel=canonical href=/in-body>`))).toBeNull();
  });

  it("treats robots none as noindex and nofollow, and googlebot like robots", () => {
    const { signals, analysis } = inspectDocument({
      html: page('<a href="/x">x</a>', '<meta name="googlebot" content="none">'),
      pageUrl: "https://a.example/",
      scripting: false,
    });
    expect(signals.noindex).toBe(true);
    expect(analysis.links[0]?.isNofollow).toBe(true);
  });

  it("has no title, no noindex and no canonical when the page says none (or a non-http canonical)", () => {
    const { signals } = inspectDocument({
      html: page("", '<link rel=canonical href="javascript:alert(1)"><meta name="description" content="noindex">'),
      pageUrl: "https://a.example/",
      scripting: false,
    });
    expect(signals).toEqual({ title: null, noindex: false, canonicalUrl: null, challenge: false });
  });

  it("reads X-Robots-Tag noindex unscoped or for googlebot only (placement-verdict.md)", () => {
    expect(robotsHeaderNoindex("noindex")).toBe(true);
    expect(robotsHeaderNoindex("googlebot: none")).toBe(true);
    expect(robotsHeaderNoindex("GoogleBot: noindex")).toBe(true);
    expect(robotsHeaderNoindex("linklensbot: noindex")).toBe(false);
    expect(robotsHeaderNoindex("bingbot: noindex\nmax-snippet: 20, googlebot: noindex")).toBe(true);
    expect(robotsHeaderNoindex("googlebot: index, bingbot: noindex")).toBe(false);
    expect(robotsHeaderNoindex("otherbot: noindex")).toBe(false);
    expect(robotsHeaderNoindex("nofollow")).toBe(false);
    expect(robotsHeaderNoindex(undefined)).toBe(false);
  });
});

describe("challenge pages", () => {
  it.each([
    ["Cloudflare's interstitial", "<title>Just a moment...</title>", '<script>window._cf_chl_opt={cvId:"3"}</script>'],
    ["Cloudflare's block page", "<title>Attention Required! | Cloudflare</title>", ""],
    [
      "DataDome",
      "<title>example.com</title>",
      '<iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe>',
    ],
    ["PerimeterX press-and-hold", "<title>Access to this page has been denied</title>", '<div id="px-captcha"></div>'],
  ])("recognizes %s", (_, head, body) => {
    expect(
      inspectDocument({ html: page(body, head), pageUrl: "https://a.example/", scripting: false }).signals.challenge,
    ).toBe(true);
  });

  it("does not take an ordinary page for one, even with a CAPTCHA widget or Cloudflare's page scripts", () => {
    const ordinary = page(
      '<form><div class="g-recaptcha"></div></form><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>',
      "<title>Just a moment of your time: our newsletter</title>",
    );
    expect(documentLooksLikeChallenge("Are we human? A review", ordinary)).toBe(false);
    expect(inspectDocument({ html: ordinary, pageUrl: "https://a.example/", scripting: false }).signals.challenge).toBe(
      false,
    );
  });

  it("reads Cloudflare's cf-mitigated header", () => {
    expect(headersSayChallenge({ "cf-mitigated": "challenge" })).toBe(true);
    expect(headersSayChallenge({ server: "cloudflare" })).toBe(false);
  });
});
