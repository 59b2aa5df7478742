import { and, eq, gte, inArray, type SQL } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { keysetPage } from "../db/keyset";
import { alertEvent } from "../db/schema";
import type { AlertEvent, AlertsQuery } from "../schemas/alerts";

/**
 * GET /api/account/alerts: the organization's alert events, newest first, with filters. AlertEvent is
 * exactly `{ id, type, monitorId, trackedLinkId, before, after, createdAt }`.
 */

export type AlertEventView = AlertEvent;

export function alertEventView(row: typeof alertEvent.$inferSelect): AlertEventView {
  return {
    id: row.id,
    type: row.type,
    monitorId: row.monitorId,
    trackedLinkId: row.trackedLinkId,
    before: row.before,
    after: row.after,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listAlerts(
  ctx: AccountContext,
  query: AlertsQuery,
): Promise<{ items: AlertEventView[]; nextCursor: string | null }> {
  const keys = { createdAt: alertEvent.createdAt, id: alertEvent.id };
  const filters: Array<SQL | undefined> = [
    eq(alertEvent.organizationId, ctx.organization.id),
    query.type?.length ? inArray(alertEvent.type, query.type) : undefined,
    query.monitorId ? eq(alertEvent.monitorId, query.monitorId) : undefined,
    query.trackedLinkId ? eq(alertEvent.trackedLinkId, query.trackedLinkId) : undefined,
    query.since ? gte(alertEvent.createdAt, new Date(query.since)) : undefined,
  ];
  return keysetPage(
    ctx.db.select().from(alertEvent).$dynamic(),
    { keys, direction: "desc", where: and(...filters), page: query },
    alertEventView,
  );
}
