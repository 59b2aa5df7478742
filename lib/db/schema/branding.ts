import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { bytea } from "./audits";
import { organizationRef, time } from "./columns";

/**
 * An organization's branding (reports-and-channels.md "Branding"): at most one row per organization, made
 * by its first change; no row is LinkLens's own look. The logo is kept re-encoded as a PNG that fits
 * 512 × 512 (lib/branding/logo-image.ts), in the database so every instance serves it; its size is kept
 * beside it, so GET /api/account/branding never reads the image.
 */
export const organizationBranding = pgTable("organization_branding", {
  organizationId: organizationRef().primaryKey(),
  displayName: text("display_name"),
  /** "#rrggbb", lowercase. */
  accentColor: text("accent_color"),
  footer: text("footer"),
  logoPng: bytea("logo_png"),
  logoWidth: integer("logo_width"),
  logoHeight: integer("logo_height"),
  logoBytes: integer("logo_bytes"),
  updatedAt: time("updated_at").notNull().defaultNow(),
});
