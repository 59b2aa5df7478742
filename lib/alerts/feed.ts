import type { AccountContext } from "../auth/guard";
import { describeEvent, type Change } from "./describe";
import { listAlerts, type AlertsQuery } from "./list";
import { placesOf } from "./recipients";

/** An alert as the app shows it: the event with the words of its email (headline, before → after). */
export interface FeedItem {
  id: string;
  type: string;
  createdAt: string;
  monitorId: string;
  monitorUrl: string;
  headline: string;
  summary: string;
  changes: Change[];
}

/** The /app/alerts list and the overview's latest alerts. */
export async function alertFeed(ctx: AccountContext, query: AlertsQuery): Promise<{ items: FeedItem[]; nextCursor: string | null }> {
  const { db } = ctx;
  const page = await listAlerts(ctx, query);
  const { pageOf, targetOf } = await placesOf(db, page.items);
  const items = page.items.map((event) => {
    const monitorUrl = pageOf.get(event.monitorId) ?? "";
    const described = describeEvent(
      { type: event.type as Parameters<typeof describeEvent>[0]["type"], before: event.before, after: event.after },
      { pageUrl: monitorUrl, target: event.trackedLinkId ? (targetOf.get(event.trackedLinkId) ?? null) : null },
    );
    return { id: event.id, type: event.type, createdAt: event.createdAt, monitorId: event.monitorId, monitorUrl, ...described };
  });
  return { items, nextCursor: page.nextCursor };
}
