import { html, type SafeHtml } from "../mail/html";
import type { ResolvedBranding } from "../schemas/branding";
import { accentColors } from "./colors";

/**
 * Branding drawn as HTML with inline styles, for what is printed or mailed (an evidence PDF, a report
 * email and its PDF): the name and logo on a band of the accent colour at the top, the footer under a
 * rule of it at the bottom. Every value is escaped (the `html` tag); the colours are the schema's
 * "#rrggbb" or LinkLens's own, and the text on the accent is black or white, whichever contrasts more.
 */

/** How tall the logo is drawn, and how wide at most (a wide logo is shrunk to fit). */
export const LOGO_DRAWN_HEIGHT = 40;
export const LOGO_DRAWN_MAX_WIDTH = 200;

/** The stored logo as a data: URL (the printed pages load nothing else; the client report shows it the same way). */
export function logoDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png).toString("base64")}`;
}

/** A PNG's size from its header (IHDR), or null for bytes that are not one. */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  if (png.byteLength < 24) return null;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The size the logo is drawn at: LOGO_DRAWN_HEIGHT high, or narrower than LOGO_DRAWN_MAX_WIDTH, never larger than it is. */
export function logoDrawnSize(png: Uint8Array): { width: number; height: number } {
  const size = pngSize(png) ?? { width: LOGO_DRAWN_HEIGHT, height: LOGO_DRAWN_HEIGHT };
  const scale = Math.min(1, LOGO_DRAWN_HEIGHT / size.height, LOGO_DRAWN_MAX_WIDTH / size.width);
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

export interface BrandHeaderOptions {
  /**
   * Where the logo is loaded from: its data: URL unless given (an email may attach it and name it
   * `cid:…`, since many mail apps show no data: image); null draws no logo.
   */
  logoSrc?: string | null;
  /** What the document is ("Placement evidence"): its heading (h1), on the band under the name. */
  title?: string;
}

/**
 * The band at the top: the logo on a white tile (a logo made for white stays readable on any accent), then
 * the name, and under it the document's title as its heading.
 */
export function brandHeaderHtml(branding: ResolvedBranding, options: BrandHeaderOptions = {}): SafeHtml {
  const { accent, onAccent } = accentColors(branding.accentColor);
  const src =
    options.logoSrc === undefined ? (branding.logoPng ? logoDataUrl(branding.logoPng) : null) : options.logoSrc;
  const size = branding.logoPng ? logoDrawnSize(branding.logoPng) : null;
  const logo =
    src && size
      ? html`<span style="display:inline-block;vertical-align:middle;background-color:#ffffff;border-radius:6px;padding:4px;margin-right:12px;line-height:0"><img src="${src}" alt="" width="${size.width}" height="${size.height}" style="display:block;width:${size.width}px;height:${size.height}px;border:0"></span>`
      : "";
  const name = options.title
    ? html`<span class="brand-name" style="display:block;font-size:13px;font-weight:600;line-height:1.3;color:${onAccent}">${branding.name}</span><h1 style="margin:0;font-size:20px;font-weight:700;line-height:1.25;color:${onAccent}">${options.title}</h1>`
    : html`<span class="brand-name" style="display:block;font-size:18px;font-weight:700;line-height:1.25;color:${onAccent}">${branding.name}</span>`;
  return html`<div class="brand-header" style="background-color:${accent};color:${onAccent};padding:12px 16px;border-radius:8px">${logo}<span style="display:inline-block;vertical-align:middle">${name}</span></div>`;
}

/** The footer at the bottom, under a rule of the accent colour; nothing when the organization has none. */
export function brandFooterHtml(branding: ResolvedBranding): SafeHtml {
  if (!branding.footer) return html``;
  const { accent } = accentColors(branding.accentColor);
  const lines = branding.footer.split("\n");
  return html`<div class="brand-footer" style="border-top:2px solid ${accent};margin-top:16px;padding-top:8px;font-size:12px;line-height:1.4;color:#334155">${lines.map((line, i) => html`${i > 0 ? html`<br>` : ""}${line}`)}</div>`;
}

/** The footer of a plain-text part; "" when the organization has none. */
export function brandFooterText(branding: ResolvedBranding): string {
  return branding.footer ? `--\n${branding.footer}` : "";
}
