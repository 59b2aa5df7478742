import { and, eq, isNotNull } from "drizzle-orm";
import { recordActivity } from "../auth/activity-log";
import type { AccountContext, OrganizationScope } from "../auth/guard";
import type { Db } from "../db/client";
import { organizationBranding } from "../db/schema";
import type { ImageBody } from "../http/read-body";
import type { Branding, BrandingPatch } from "../schemas/branding";
import { normalizeLogo } from "./logo-image";

/**
 * An organization's branding, its routes' services (reports-and-channels.md "Branding"): read it
 * (viewer+), change the name, colour and footer, set or remove the logo (admin+). Every change is in the
 * activity log with what it changed; a change that changes nothing is not. The organization's row is
 * made by its first change; until then it has LinkLens's look (every field null).
 */

const BRANDING_FIELDS = ["displayName", "accentColor", "footer"] as const;
type BrandingField = (typeof BRANDING_FIELDS)[number];

/** The columns of the answer: never the logo's bytes. */
const SUMMARY = {
  displayName: organizationBranding.displayName,
  accentColor: organizationBranding.accentColor,
  footer: organizationBranding.footer,
  logoWidth: organizationBranding.logoWidth,
  logoHeight: organizationBranding.logoHeight,
  logoBytes: organizationBranding.logoBytes,
};
type SummaryRow = { [K in keyof typeof SUMMARY]: (typeof SUMMARY)[K]["_"]["data"] | null };

const ofOrganization = (organizationId: string) => eq(organizationBranding.organizationId, organizationId);

export function brandingView(row: SummaryRow | undefined): Branding {
  const logo =
    row?.logoWidth && row.logoHeight && row.logoBytes
      ? { width: row.logoWidth, height: row.logoHeight, bytes: row.logoBytes }
      : null;
  return {
    displayName: row?.displayName ?? null,
    accentColor: row?.accentColor ?? null,
    footer: row?.footer ?? null,
    logo,
  };
}

/** GET /branding: the organization's branding, every field null when it has none (never 404). */
export async function getBranding(ctx: OrganizationScope): Promise<Branding> {
  const [row] = await ctx.db.select(SUMMARY).from(organizationBranding).where(ofOrganization(ctx.organization.id));
  return brandingView(row);
}

/** The organization's row, made if it has none yet, locked until the transaction ends. */
async function lockedRow(tx: Pick<Db, "insert" | "select">, organizationId: string): Promise<SummaryRow> {
  await tx.insert(organizationBranding).values({ organizationId }).onConflictDoNothing();
  const [row] = await tx.select(SUMMARY).from(organizationBranding).where(ofOrganization(organizationId)).for("update");
  if (!row) throw new Error("branding row missing after its insert");
  return row;
}

/** PATCH /branding: the fields named change (null clears one); the others stay. */
export async function updateBranding(ctx: AccountContext, patch: BrandingPatch): Promise<Branding> {
  return ctx.db.transaction(async (tx) => {
    const before = await lockedRow(tx, ctx.organization.id);
    const changed = BRANDING_FIELDS.filter((field) => patch[field] !== undefined && patch[field] !== before[field]);
    if (changed.length === 0) return brandingView(before);
    const set: Partial<Record<BrandingField, string | null>> = Object.fromEntries(
      changed.map((field) => [field, patch[field] ?? null]),
    );
    const [after] = await tx
      .update(organizationBranding)
      .set({ ...set, updatedAt: ctx.now() })
      .where(ofOrganization(ctx.organization.id))
      .returning(SUMMARY);
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "branding.updated",
      target: { type: "organization", id: ctx.organization.id },
      details: Object.fromEntries(changed.map((field) => [field, { before: before[field], after: set[field] }])),
    });
    return brandingView(after);
  });
}

/** PUT /branding/logo: decoded, scaled and re-encoded first (400 when it cannot be), then kept in place of the last. */
export async function setLogo(ctx: AccountContext, upload: ImageBody): Promise<Branding> {
  const logo = await normalizeLogo(upload.bytes, upload.mediaType);
  return ctx.db.transaction(async (tx) => {
    await lockedRow(tx, ctx.organization.id);
    const [after] = await tx
      .update(organizationBranding)
      .set({
        logoPng: logo.png,
        logoWidth: logo.width,
        logoHeight: logo.height,
        logoBytes: logo.png.byteLength,
        updatedAt: ctx.now(),
      })
      .where(ofOrganization(ctx.organization.id))
      .returning(SUMMARY);
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "branding.logo_set",
      target: { type: "organization", id: ctx.organization.id },
      details: {
        uploaded: { type: upload.mediaType, bytes: upload.bytes.byteLength },
        stored: { width: logo.width, height: logo.height, bytes: logo.png.byteLength },
      },
    });
    return brandingView(after);
  });
}

/** The stored logo's PNG, or null when the organization has none. */
export async function logoPng(ctx: OrganizationScope): Promise<Buffer | null> {
  const [row] = await ctx.db
    .select({ png: organizationBranding.logoPng })
    .from(organizationBranding)
    .where(ofOrganization(ctx.organization.id));
  return row?.png ?? null;
}

/** DELETE /branding/logo: the report goes back to the name alone. Removing no logo changes (and logs) nothing. */
export async function removeLogo(ctx: AccountContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx
      .update(organizationBranding)
      .set({ logoPng: null, logoWidth: null, logoHeight: null, logoBytes: null, updatedAt: ctx.now() })
      .where(and(ofOrganization(ctx.organization.id), isNotNull(organizationBranding.logoPng)))
      .returning({ organizationId: organizationBranding.organizationId });
    if (!removed) return;
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "branding.logo_removed",
      target: { type: "organization", id: ctx.organization.id },
    });
  });
}
