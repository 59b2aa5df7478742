/**
 * An accent colour and the text drawn on it (reports-and-channels.md "Branding": the accent colour on
 * headings and rules, text on it picked for WCAG AA contrast). Pure and import-free, so the settings
 * page's live preview in the browser picks the same text colour as the report, the email and the PDF.
 *
 * WCAG 2.2 (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio): the contrast of two colours is
 * (L1 + 0.05) / (L2 + 0.05) of their relative luminances; AA asks 4.5:1 for normal text.
 */

/** WCAG AA's contrast for normal text. */
export const AA_CONTRAST = 4.5;

/** LinkLens's own blue (the site icon's), for an organization that has not chosen a colour. */
export const DEFAULT_ACCENT = "#1d4ed8";

export const WHITE = "#ffffff";
export const BLACK = "#000000";

/** A colour written "#rrggbb" (any case). */
export function isHexColor(value: string): boolean {
  return /^#[0-9a-f]{6}$/i.test(value);
}

function channels(hex: string): [number, number, number] {
  if (!isHexColor(hex)) throw new Error(`not a "#rrggbb" colour: ${hex}`);
  return [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255) as [number, number, number];
}

/** WCAG's relative luminance of an sRGB colour: 0 for black, 1 for white. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours, from 1 (the same) to 21 (black on white); the order does not matter. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour for `background`: white when it reaches WCAG AA there (the usual look on a brand
 * colour), else black. White falls below 4.5:1 only on a background of luminance L above 0.1833
 * (1.05 / (L + 0.05) < 4.5), where black reaches (L + 0.05) / 0.05 > 4.67:1; so the text is AA on every
 * colour an organization can choose.
 */
export function textColorOn(background: string): typeof WHITE | typeof BLACK {
  return contrastRatio(WHITE, background) >= AA_CONTRAST ? WHITE : BLACK;
}

/** The accent an organization chose (LinkLens's blue when none) and the text colour drawn on it. */
export function accentColors(accentColor: string | null): { accent: string; onAccent: string } {
  const accent = accentColor && isHexColor(accentColor) ? accentColor.toLowerCase() : DEFAULT_ACCENT;
  return { accent, onAccent: textColorOn(accent) };
}
