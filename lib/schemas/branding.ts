import { z } from "zod";
import { CONTROL_CHARACTERS } from "./common";

/**
 * An organization's branding (docs/spec/reports-and-channels.md "Branding"): how its client reports, report
 * emails and their PDFs, and evidence PDFs look. The answer of GET /api/account/branding and the body of
 * PATCH; the logo itself is PUT and read as a PNG at /api/account/branding/logo.
 */

export const MAX_BRAND_NAME = 100;
export const MAX_BRAND_FOOTER = 300;
/** A logo upload's largest body; it is stored re-encoded as a PNG that fits LOGO_BOX × LOGO_BOX. */
export const MAX_LOGO_BYTES = 256 * 1024;
export const LOGO_BOX = 512;
/**
 * The most pixels a logo upload may have (as many as 4096 × 4096), read from the image's header before a
 * pixel is decoded: a small file may claim 50,000 × 50,000 pixels, which would take gigabytes to decode.
 */
export const MAX_LOGO_PIXELS = 4096 * 4096;

const ACCENT = /^#[0-9a-f]{6}$/i;

export const LogoSchema = z.strictObject({
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
});

export const BrandingSchema = z.strictObject({
  displayName: z.string().nullable(),
  accentColor: z.string().regex(ACCENT).nullable(),
  footer: z.string().nullable(),
  logo: LogoSchema.nullable(),
});
export type Branding = z.infer<typeof BrandingSchema>;

/** PATCH /api/account/branding: any of the three text fields; null clears one. */
export const brandingPatchSchema = z
  .strictObject({
    displayName: z
      .string()
      .trim()
      .min(1)
      .max(MAX_BRAND_NAME)
      .refine((value) => !CONTROL_CHARACTERS.test(value), "must not contain control characters")
      .nullable()
      .optional(),
    accentColor: z
      .string()
      .regex(ACCENT, 'must be a colour written "#rrggbb"')
      .transform((value) => value.toLowerCase())
      .nullable()
      .optional(),
    footer: z
      .string()
      .trim()
      .min(1)
      .max(MAX_BRAND_FOOTER)
      .refine((value) => !CONTROL_CHARACTERS.test(value.replace(/\n/g, "")), "must be plain text")
      .nullable()
      .optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, "name at least one of displayName, accentColor, footer");
export type BrandingPatch = z.infer<typeof brandingPatchSchema>;

/**
 * What a report or PDF is drawn with: the organization's branding resolved (its name when no display name
 * is set) and the logo's PNG bytes, or null for LinkLens's own look.
 */
export interface ResolvedBranding {
  name: string;
  accentColor: string | null;
  footer: string | null;
  logoPng: Uint8Array | null;
}
