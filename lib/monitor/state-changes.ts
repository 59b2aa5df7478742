import { desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { OrganizationScope } from "../auth/guard";
import { linkTransition } from "../db/schema";
import type { Transition } from "../schemas/monitors";
import { owned } from "./scope";
import { transitionView } from "./views";

/**
 * The latest state changes of several tracked links of the organization in one query, newest first:
 * at most `perLink` of each, the same ones GET /links/{id}/history?limit={perLink} answers for each link.
 * The monitor page's timeline reads its links' changes so (the API reads one link's at a time); ids that
 * are not the organization's tracked links have none.
 */
export async function recentStateChanges(
  ctx: OrganizationScope,
  linkIds: readonly string[],
  perLink: number,
): Promise<Transition[]> {
  if (linkIds.length === 0) return [];
  const where = owned(linkTransition, ctx.organization.id, inArray(linkTransition.trackedLinkId, [...linkIds]));
  const ranked = ctx.db
    .select({
      id: linkTransition.id,
      rank: sql<number>`row_number() over (partition by ${linkTransition.trackedLinkId} order by ${linkTransition.createdAt} desc, ${linkTransition.id} desc)`.as(
        "rank",
      ),
    })
    .from(linkTransition)
    .where(where)
    .as("ranked");
  const rows = await ctx.db
    .select({ transition: linkTransition })
    .from(linkTransition)
    .innerJoin(ranked, eq(ranked.id, linkTransition.id))
    .where(lte(ranked.rank, perLink))
    .orderBy(desc(linkTransition.createdAt), desc(linkTransition.id));
  return rows.map((row) => transitionView(row.transition));
}
