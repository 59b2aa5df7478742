import { accentColors, isHexColor } from "./colors";

/**
 * The client report's colours as a stylesheet of its own (/brand/accent-rrggbb.css). A report's
 * Content-Security-Policy takes styles from our origin only (`style-src 'self'`: no inline style), so its
 * accent comes as two custom properties from a path that names the colour; the report's classes use them.
 * The path holds nothing but the colour (no token, no organization), so the answer is the same for every
 * report of that colour and may be cached for good.
 */

const FILE = /^accent-([0-9a-f]{6})\.css$/;

/** The stylesheet's path for an accent colour ("#rrggbb"). */
export function accentStylesheetPath(accentColor: string): string {
  if (!isHexColor(accentColor)) throw new Error(`not a "#rrggbb" colour: ${accentColor}`);
  return `/brand/accent-${accentColor.slice(1).toLowerCase()}.css`;
}

/** The stylesheet a file name of that path stands for, or null for any other name. */
export function accentStylesheet(file: string): string | null {
  const hex = FILE.exec(file)?.[1];
  if (!hex) return null;
  const { accent, onAccent } = accentColors(`#${hex}`);
  return `:root{--brand-accent:${accent};--brand-on-accent:${onAccent}}\n`;
}
