import { eq } from "drizzle-orm";
import type { DomainGroups } from "../analyzer";
import type { Db } from "../db/client";
import { domainGroup, domainGroupSite } from "../db/schema";

/**
 * An organization's domain groups as the analyzer takes them: site → group name (sites as siteOf keys
 * them when the group is saved). Read once per audit or monitor check, so an edited group applies from
 * the next analysis on and never to one already stored.
 */
export async function loadDomainGroups(db: Pick<Db, "select">, organizationId: string): Promise<DomainGroups> {
  const rows = await db
    .select({ site: domainGroupSite.site, name: domainGroup.name })
    .from(domainGroupSite)
    .innerJoin(domainGroup, eq(domainGroup.id, domainGroupSite.groupId))
    .where(eq(domainGroupSite.organizationId, organizationId));
  return Object.fromEntries(rows.map((row) => [row.site, row.name]));
}
