/**
 * Branding (reports-and-channels.md "Branding"): what the client reports, report emails and their PDFs,
 * and evidence PDFs are drawn with. `resolveBranding` reads it; the rest draws it (pure).
 */
export { resolveBranding } from "./resolve";
export { AA_CONTRAST, accentColors, contrastRatio, DEFAULT_ACCENT, textColorOn } from "./colors";
export {
  brandFooterHtml,
  brandFooterText,
  brandHeaderHtml,
  logoDataUrl,
  logoDrawnSize,
  type BrandHeaderOptions,
} from "./draw";
export type { ResolvedBranding } from "../schemas/branding";
