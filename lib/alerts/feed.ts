import type { AccountContext } from "../auth/guard";
import type { AlertFeedItem } from "../schemas/alerts";
import { describeEvent } from "./describe";
import { listAlerts } from "./list";
import { type AlertsQuery } from "../schemas/alerts";
import { placesOf } from "./recipients";

export type FeedItem = AlertFeedItem;

/** The /app/alerts list and the overview's latest alerts. */
export async function alertFeed(
  ctx: AccountContext,
  query: AlertsQuery,
): Promise<{ items: FeedItem[]; nextCursor: string | null }> {
  const { db } = ctx;
  const page = await listAlerts(ctx, query);
  const { pageOf, targetOf } = await placesOf(db, page.items);
  const items = page.items.map((event) => {
    const monitorUrl = pageOf.get(event.monitorId) ?? "";
    const described = describeEvent(
      { type: event.type as Parameters<typeof describeEvent>[0]["type"], before: event.before, after: event.after },
      { pageUrl: monitorUrl, target: event.trackedLinkId ? (targetOf.get(event.trackedLinkId) ?? null) : null },
    );
    return {
      id: event.id,
      type: event.type,
      createdAt: event.createdAt,
      monitorId: event.monitorId,
      monitorUrl,
      ...described,
    };
  });
  return { items, nextCursor: page.nextCursor };
}
