import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { escapeHtml, reportHtml } from "@/lib/evidence/report-html";
import { utcTime } from "@/lib/schemas/evidence";
import type { EvidenceMeta } from "@/lib/evidence/views";
import type { ResolvedBranding } from "@/lib/schemas/branding";
import { pngOf } from "../../helpers/images";

const record = (over: Partial<EvidenceMeta> = {}): EvidenceMeta => ({
  id: "6f1c1d2e-0000-4000-8000-000000000001",
  organizationId: "org",
  monitorId: "mon",
  trackedLinkId: "link",
  checkId: "check",
  capturedAt: new Date("2026-11-26T10:42:13.456Z"),
  reason: "state_change",
  pageUrl: "https://blog.example/guest-post",
  target: "https://shop.example/",
  match: "prefix",
  finalUrl: "https://blog.example/guest-post/",
  httpStatus: 200,
  htmlSha256: "a".repeat(64),
  htmlBytes: 12_345,
  link: {
    href: "https://shop.example/shoes",
    position: 7,
    linkType: "external",
    anchorText: '<img src=x onerror="alert(1)"> & "best" shoes',
    isNofollow: true,
    isSponsored: false,
    isUgc: true,
    isImage: false,
    httpStatus: 404,
    matchedGroupName: null,
    signals: { inRawHtml: false, hidden: true, region: "footer", inGoogleView: null },
  },
  verdict: { value: "does_not_count", reasons: ["broken_target", "nofollow", "hidden"] },
  screenshotWidth: 1280,
  screenshotHeight: 800,
  screenshotBytes: 10,
  linkBox: null,
  googleScreenshotWidth: null,
  googleScreenshotHeight: null,
  googleScreenshotBytes: null,
  ...over,
});

/** An organization without branding: its name, LinkLens's colours, no footer, no logo. */
const plain = (name: string): ResolvedBranding => ({ name, accentColor: null, footer: null, logoPng: null });

function read(html: string) {
  return new JSDOM(html).window.document;
}

describe("the evidence report's page", () => {
  it("states everything a vendor checks, in words, with the page's own text escaped", () => {
    const document = read(
      reportHtml({
        record: record(),
        branding: plain("Acme <SEO>"),
        png: Buffer.from("png"),
        printedAt: new Date("2026-11-27T00:00:00Z"),
      }),
    );
    const text = document.body.textContent ?? "";
    for (const expected of [
      "https://blog.example/guest-post",
      "https://blog.example/guest-post/",
      "2026-11-26 10:42:13 UTC",
      "HTTP status200",
      "a".repeat(64),
      "12,345 bytes",
      "https://shop.example/shoes",
      '<img src=x onerror="alert(1)"> & "best" shoes',
      "nofollow, ugc",
      "7 (of the page's links",
      "HTTP 404",
      "no, added by JavaScript",
      "no, hidden by CSS",
      "footer",
      "Doesn't count",
      "Link target is broken",
      "Link hidden by CSS",
      "Acme <SEO>",
      "State changed",
    ]) {
      expect(text, expected).toContain(expected);
    }
    // The anchor text is text: no element of the page's making exists in the report.
    expect(document.querySelectorAll("img")).toHaveLength(1);
    expect(document.querySelector("img")?.getAttribute("src")).toBe(
      `data:image/png;base64,${Buffer.from("png").toString("base64")}`,
    );
    expect(document.querySelectorAll("script")).toHaveLength(0);
    expect(document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content")).toContain(
      "default-src 'none'",
    );
  });

  it("says so when the link is missing, the verdict unknown, the HTML unread or no screenshot was taken", () => {
    const text =
      read(
        reportHtml({
          record: record({ link: null, verdict: null, htmlSha256: null, htmlBytes: null }),
          branding: plain("Acme"),
          png: null,
          printedAt: new Date(),
        }),
      ).body.textContent ?? "";
    expect(text).toContain("Not on the page at this moment");
    expect(text).toContain("not yet known");
    expect(text).toContain("not available");
    expect(text).toContain("No screenshot could be taken");
  });

  it("draws the organization's branding: logo, name and title on the accent, the accent on the rules, the footer last", async () => {
    const logo = await pngOf(300, 100);
    const document = read(
      reportHtml({
        record: record(),
        branding: {
          name: "Northwind <Agency>",
          accentColor: "#ffcc00",
          footer: "Northwind Ltd, 1 Harbour Rd\nQuestions: hello@northwind.example <b>now</b>",
          logoPng: logo,
        },
        png: Buffer.from("png"),
        printedAt: new Date("2026-11-27T00:00:00Z"),
      }),
    );
    const band = document.querySelector<HTMLElement>("body > .brand-header");
    expect(band?.style.backgroundColor).toBe("rgb(255, 204, 0)");
    // Yellow takes black text (white would be 1.5:1).
    expect(band?.style.color).toBe("rgb(0, 0, 0)");
    expect(band?.querySelector(".brand-name")?.textContent).toBe("Northwind <Agency>");
    expect(band?.querySelector("h1")?.textContent).toBe("Placement evidence");
    expect(document.querySelectorAll("h1")).toHaveLength(1);
    const [logoImage, screenshot] = [...document.querySelectorAll("img")];
    expect(logoImage?.getAttribute("src")).toBe(`data:image/png;base64,${logo.toString("base64")}`);
    expect(screenshot?.getAttribute("src")).toBe(`data:image/png;base64,${Buffer.from("png").toString("base64")}`);
    const css = document.querySelector("style")?.textContent ?? "";
    expect(css).toMatch(/h2 \{[^}]*border-bottom: 0\.4mm solid #ffcc00;/);
    const footer = document.querySelector<HTMLElement>(".brand-footer");
    expect(footer?.textContent).toBe("Northwind Ltd, 1 Harbour RdQuestions: hello@northwind.example <b>now</b>");
    expect(footer?.querySelector("b")).toBeNull();
    // The footer comes after the screenshot, before LinkLens's own line.
    expect(footer?.previousElementSibling?.tagName).toBe("FIGURE");
    expect(footer?.nextElementSibling?.tagName).toBe("FOOTER");
  });

  it("escapes the five characters and writes UTC times to the second", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
    expect(utcTime(new Date("2026-03-29T01:30:00.999+02:00"))).toBe("2026-03-28 23:30:00 UTC");
  });
});
