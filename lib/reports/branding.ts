import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { organization } from "../db/schema";
import type { ResolvedBranding } from "../schemas/branding";

/**
 * The branding a report email and its PDF are drawn with. A stand-in until the branding work lands:
 * the organization's name and LinkLens's own look (no colour, footer or logo). At that merge this becomes
 * `resolveBranding(db, organizationId)` from lib/branding; every caller already takes a ResolvedBranding.
 */
export async function reportBranding(db: Pick<Db, "select">, organizationId: string): Promise<ResolvedBranding> {
  const [row] = await db
    .select({ name: organization.name })
    .from(organization)
    .where(eq(organization.id, organizationId))
    .limit(1);
  return { name: row?.name ?? "Your team", accentColor: null, footer: null, logoPng: null };
}
