import { and, eq, gte, inArray, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { AccountContext } from "../auth/guard";
import { keysetPage } from "../db/keyset";
import { alertEvent } from "../db/schema";
import { parseQuery } from "../http/query";
import { ALERT_TYPES } from "./types";

/**
 * GET /api/account/alerts: the organization's alert events, newest first, with filters. AlertEvent is
 * exactly `{ id, type, monitorId, trackedLinkId, before, after, createdAt }`.
 */

const typeList = z
  .string()
  .max(400)
  .transform((value, ctx) => {
    const types = value.split(",").map((type) => type.trim()).filter(Boolean);
    for (const type of types) {
      if (!(ALERT_TYPES as readonly string[]).includes(type)) ctx.addIssue({ code: "custom", message: `unknown alert type "${type}" (one of ${ALERT_TYPES.join(", ")})` });
    }
    return types as (typeof ALERT_TYPES)[number][];
  });

export const alertsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(512).optional(),
  /** One type or several, comma-separated. */
  type: typeList.optional(),
  monitorId: z.string().min(1).max(200).optional(),
  trackedLinkId: z.string().min(1).max(200).optional(),
  /** ISO 8601: only events at or after this time. */
  since: z.iso.datetime({ offset: true }).optional(),
});

export type AlertsQuery = z.infer<typeof alertsQuerySchema>;

export function parseAlertsQuery(request: Request): AlertsQuery {
  return parseQuery(request, alertsQuerySchema, "Filters: type (comma-separated), monitorId, trackedLinkId, since (ISO 8601); and limit, cursor.");
}

export interface AlertEventView {
  id: string;
  type: string;
  monitorId: string;
  trackedLinkId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: string;
}

export function alertEventView(row: typeof alertEvent.$inferSelect): AlertEventView {
  return { id: row.id, type: row.type, monitorId: row.monitorId, trackedLinkId: row.trackedLinkId, before: row.before, after: row.after, createdAt: row.createdAt.toISOString() };
}

export async function listAlerts(ctx: AccountContext, query: AlertsQuery): Promise<{ items: AlertEventView[]; nextCursor: string | null }> {
  const keys = { createdAt: alertEvent.createdAt, id: alertEvent.id };
  const filters: Array<SQL | undefined> = [
    eq(alertEvent.organizationId, ctx.organization.id),
    query.type?.length ? inArray(alertEvent.type, query.type) : undefined,
    query.monitorId ? eq(alertEvent.monitorId, query.monitorId) : undefined,
    query.trackedLinkId ? eq(alertEvent.trackedLinkId, query.trackedLinkId) : undefined,
    query.since ? gte(alertEvent.createdAt, new Date(query.since)) : undefined,
  ];
  return keysetPage(ctx.db.select().from(alertEvent).$dynamic(), { keys, direction: "desc", where: and(...filters), page: query }, alertEventView);
}
