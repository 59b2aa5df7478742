import { describe, expect, it } from "vitest";
import {
  AA_CONTRAST,
  accentColors,
  BLACK,
  contrastRatio,
  DEFAULT_ACCENT,
  relativeLuminance,
  textColorOn,
  WHITE,
} from "@/lib/branding/colors";

/**
 * The text colour on an accent (reports-and-channels.md "Branding": text on the accent picked for WCAG AA
 * contrast): white wherever white reaches AA, else black. A table of colours an organization might choose,
 * each with the text it must get and the contrast that text reaches (WCAG 2.2's formula; #767676 and #777777 on white are the well-known 4.54 and 4.48).
 */

const TABLE: Array<{ accent: string; text: string; contrast: number; why: string }> = [
  { accent: "#ffffff", text: BLACK, contrast: 21, why: "white: black text" },
  { accent: "#000000", text: WHITE, contrast: 21, why: "black: white text" },
  { accent: "#1d4ed8", text: WHITE, contrast: 6.7, why: "LinkLens blue" },
  { accent: "#0070f3", text: WHITE, contrast: 4.55, why: "a bright blue: white passes (black would be 4.61)" },
  { accent: "#767676", text: WHITE, contrast: 4.54, why: "the darkest grey where white still passes" },
  { accent: "#777777", text: BLACK, contrast: 4.69, why: "one step lighter: white fails (4.48), black passes" },
  { accent: "#ff0000", text: BLACK, contrast: 5.25, why: "pure red: white would be 4.0" },
  { accent: "#ff6600", text: BLACK, contrast: 7.15, why: "orange: white would be 2.94" },
  { accent: "#ffcc00", text: BLACK, contrast: 13.89, why: "yellow" },
  { accent: "#00ff00", text: BLACK, contrast: 15.3, why: "pure green" },
  { accent: "#0f766e", text: WHITE, contrast: 5.47, why: "teal" },
  { accent: "#7c3aed", text: WHITE, contrast: 5.7, why: "violet" },
  { accent: "#FFCC00", text: BLACK, contrast: 13.89, why: "upper case is the same colour" },
];

describe("the text colour on an accent", () => {
  it.each(TABLE)("$accent ($why) → $text at $contrast:1", ({ accent, text, contrast }) => {
    expect(textColorOn(accent)).toBe(text);
    expect(contrastRatio(text, accent)).toBeCloseTo(contrast, 1);
    expect(contrastRatio(text, accent)).toBeGreaterThanOrEqual(AA_CONTRAST);
  });

  it("reaches WCAG AA on every colour (a 32-step grid of the RGB cube, 35,937 colours)", () => {
    const steps = Array.from({ length: 33 }, (_, i) => Math.min(255, i * 8));
    let worst = 21;
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const accent = `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
          worst = Math.min(worst, contrastRatio(textColorOn(accent), accent));
        }
    expect(worst).toBeGreaterThanOrEqual(AA_CONTRAST);
    // The worst case is white just above 4.5:1 (a background of luminance just under 0.1833).
    expect(worst).toBeLessThan(4.6);
  });

  it("measures luminance and contrast as WCAG does, in either order", () => {
    expect(relativeLuminance("#000000")).toBe(0);
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1, 10);
    expect(relativeLuminance("#808080")).toBeCloseTo(0.2158605, 6);
    expect(contrastRatio("#1d4ed8", "#ffffff")).toBe(contrastRatio("#ffffff", "#1d4ed8"));
    expect(contrastRatio("#123456", "#123456")).toBe(1);
    expect(() => relativeLuminance("red")).toThrow();
    expect(() => relativeLuminance("#fff")).toThrow();
  });

  it("falls back to LinkLens's blue without an accent, and writes colours in lower case", () => {
    expect(accentColors(null)).toEqual({ accent: DEFAULT_ACCENT, onAccent: WHITE });
    expect(accentColors("#FFCC00")).toEqual({ accent: "#ffcc00", onAccent: BLACK });
    expect(accentColors("not a colour")).toEqual({ accent: DEFAULT_ACCENT, onAccent: WHITE });
  });
});
