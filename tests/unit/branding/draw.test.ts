import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { brandFooterHtml, brandFooterText, brandHeaderHtml, logoDataUrl, logoDrawnSize } from "@/lib/branding";
import { pngSize } from "@/lib/branding/draw";
import { accentStylesheet, accentStylesheetPath } from "@/lib/branding/stylesheet";
import type { ResolvedBranding } from "@/lib/schemas/branding";
import { pngOf } from "../../helpers/images";

/**
 * Branding drawn for printed and mailed documents (the header band and the footer), and the client
 * report's accent stylesheet: the organization's words are text, never markup, and the colours are the
 * accent and the text colour picked for it.
 */

const hostile: ResolvedBranding = {
  name: `Acme <img src=x onerror="alert(1)"> & "Sons"`,
  accentColor: "#ffcc00",
  footer: "Acme Ltd · 1 Main St\n<script>alert(1)</script> & more",
  logoPng: null,
};

const dom = (html: string) => new JSDOM(`<body>${html}</body>`).window.document;

describe("the header band", () => {
  it("writes the name as text on the accent, in the text colour picked for it", () => {
    const document = dom(brandHeaderHtml(hostile, { title: "Weekly <b>report</b>" }).value);
    const band = document.querySelector<HTMLElement>(".brand-header");
    expect(band?.style.backgroundColor).toBe("rgb(255, 204, 0)");
    expect(band?.style.color).toBe("rgb(0, 0, 0)");
    expect(document.querySelector(".brand-name")?.textContent).toBe(hostile.name);
    const heading = document.querySelector<HTMLElement>(".brand-header h1");
    expect(heading?.textContent).toBe("Weekly <b>report</b>");
    expect(heading?.style.color).toBe("rgb(0, 0, 0)");
    expect(document.querySelectorAll("img, b, script")).toHaveLength(0);
  });

  it("draws LinkLens's blue with white text without an accent, and the logo at 40 px high on a white tile", async () => {
    const png = await pngOf(400, 100);
    const document = dom(brandHeaderHtml({ ...hostile, accentColor: null, logoPng: png }).value);
    const band = document.querySelector<HTMLElement>(".brand-header");
    expect(band?.style.backgroundColor).toBe("rgb(29, 78, 216)");
    expect(band?.style.color).toBe("rgb(255, 255, 255)");
    const img = document.querySelector("img");
    expect(img?.getAttribute("src")).toBe(logoDataUrl(png));
    expect([img?.getAttribute("width"), img?.getAttribute("height")]).toEqual(["160", "40"]);
    expect(img?.parentElement?.style.backgroundColor).toBe("rgb(255, 255, 255)");
  });

  it("takes the logo from where the caller says (an email's attachment), or draws none", async () => {
    const png = await pngOf(40, 40);
    const branded = { ...hostile, logoPng: png };
    expect(
      dom(brandHeaderHtml(branded, { logoSrc: "cid:logo" }).value)
        .querySelector("img")
        ?.getAttribute("src"),
    ).toBe("cid:logo");
    expect(dom(brandHeaderHtml(branded, { logoSrc: null }).value).querySelector("img")).toBeNull();
  });

  it("sizes a logo to 40 px high, at most 200 px wide, never larger than it is", async () => {
    expect(logoDrawnSize(await pngOf(512, 128))).toEqual({ width: 160, height: 40 });
    expect(logoDrawnSize(await pngOf(512, 32))).toEqual({ width: 200, height: 13 });
    expect(logoDrawnSize(await pngOf(20, 10))).toEqual({ width: 20, height: 10 });
    expect(pngSize(await pngOf(300, 7))).toEqual({ width: 300, height: 7 });
    expect(pngSize(Buffer.from("not a png"))).toBeNull();
  });
});

describe("the footer", () => {
  it("keeps the organization's lines, as text, under a rule of the accent", () => {
    const document = dom(brandFooterHtml(hostile).value);
    const footer = document.querySelector<HTMLElement>(".brand-footer");
    expect(footer?.style.borderTop).toBe("2px solid rgb(255, 204, 0)");
    expect(footer?.querySelectorAll("br")).toHaveLength(1);
    expect(footer?.textContent).toBe("Acme Ltd · 1 Main St<script>alert(1)</script> & more");
    expect(footer?.querySelectorAll("script")).toHaveLength(0);
    expect(brandFooterText(hostile)).toBe(`--\n${hostile.footer}`);
  });

  it("is nothing when the organization has none", () => {
    expect(brandFooterHtml({ ...hostile, footer: null }).value).toBe("");
    expect(brandFooterText({ ...hostile, footer: null })).toBe("");
  });
});

describe("the client report's accent stylesheet", () => {
  it("is named by the colour and holds the colour and the text on it", () => {
    expect(accentStylesheetPath("#0F766E")).toBe("/brand/accent-0f766e.css");
    expect(accentStylesheet("accent-0f766e.css")).toBe(":root{--brand-accent:#0f766e;--brand-on-accent:#ffffff}\n");
    expect(accentStylesheet("accent-ffcc00.css")).toBe(":root{--brand-accent:#ffcc00;--brand-on-accent:#000000}\n");
  });

  it.each([
    "accent-0F766E.css",
    "accent-0f766e",
    "accent-0f766.css",
    "accent-0f766e.css;x",
    "../accent-000000.css",
    "",
  ])("%j names no stylesheet", (file) => {
    expect(accentStylesheet(file)).toBeNull();
  });
});
