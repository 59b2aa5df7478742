import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { organization, organizationBranding } from "../db/schema";
import type { ResolvedBranding } from "../schemas/branding";

/**
 * What a client report, a report email and its PDF, and an evidence PDF are drawn with: the
 * organization's branding with its name in place of a display name it has not set, and the logo's PNG.
 * No branding row is LinkLens's look with the organization's name.
 */
export async function resolveBranding(db: Db, organizationId: string): Promise<ResolvedBranding> {
  const [row] = await db
    .select({
      name: organization.name,
      displayName: organizationBranding.displayName,
      accentColor: organizationBranding.accentColor,
      footer: organizationBranding.footer,
      logoPng: organizationBranding.logoPng,
    })
    .from(organization)
    .leftJoin(organizationBranding, eq(organizationBranding.organizationId, organization.id))
    .where(eq(organization.id, organizationId))
    .limit(1);
  if (!row) throw new Error(`no organization ${organizationId} to resolve the branding of`);
  return {
    name: row.displayName ?? row.name,
    accentColor: row.accentColor ?? null,
    footer: row.footer ?? null,
    logoPng: row.logoPng ? new Uint8Array(row.logoPng) : null,
  };
}
