import { randomUUID } from "node:crypto";
import { asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { AccountContext, OrganizationScope } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import type { Db } from "../db/client";
import { keysetPage, type PageRequest } from "../db/keyset";
import { monitor, trackedLink } from "../db/schema";
import { ApiError } from "../errors";
import { uniqueViolation } from "../db/errors";
import { DEFAULT_INTERVAL, type MonitorPatchInput, type NewLinkInput, type NewMonitorInput } from "../schemas/monitors";
import { retireLinks } from "./retire";
import { notFound, owned } from "./scope";
import { assertInterval, monitorUrlFor, targetFor } from "./targets";
import { monitorView, type MonitorRow, type MonitorView, type TrackedLinkRow } from "./views";

/**
 * Monitored pages: create (due at once), list, read, change (interval, pause, tags, Google view) and delete. Every query
 * is scoped to the caller's organization (scope.ts); a monitor comes back with all its tracked links.
 */

type Tx = Pick<Db, "select" | "insert" | "update" | "delete" | "execute">;

/** The tracked links of some monitors, oldest first, grouped by monitor. */
export async function linksOf(
  db: Pick<Db, "select">,
  organizationId: string,
  monitorIds: readonly string[],
): Promise<Map<string, TrackedLinkRow[]>> {
  const grouped = new Map<string, TrackedLinkRow[]>(monitorIds.map((id) => [id, []]));
  if (monitorIds.length === 0) return grouped;
  const rows = await db
    .select()
    .from(trackedLink)
    .where(owned(trackedLink, organizationId, inArray(trackedLink.monitorId, [...monitorIds])))
    .orderBy(asc(trackedLink.createdAt), asc(trackedLink.id));
  for (const row of rows) grouped.get(row.monitorId)?.push(row);
  return grouped;
}

/** One monitor of the organization (404 otherwise). */
export async function findMonitor(
  ctx: OrganizationScope,
  monitorId: string,
  db: Pick<Db, "select"> = ctx.db,
): Promise<MonitorRow> {
  const organizationId = ctx.organization.id;
  const [row] = await db
    .select()
    .from(monitor)
    .where(owned(monitor, organizationId, eq(monitor.id, monitorId)))
    .limit(1);
  if (!row) throw notFound("monitor");
  return row;
}

export async function getMonitor(ctx: OrganizationScope, monitorId: string): Promise<MonitorView> {
  const row = await findMonitor(ctx, monitorId);
  const links = await linksOf(ctx.db, ctx.organization.id, [row.id]);
  return monitorView(row, links.get(row.id) ?? []);
}

/** Monitors, newest first, a page at a time, each with its links. */
export async function listMonitors(ctx: AccountContext, page: PageRequest) {
  const keys = { createdAt: monitor.createdAt, id: monitor.id };
  const rows = await keysetPage(
    ctx.db.select().from(monitor).$dynamic(),
    { keys, direction: "desc", where: owned(monitor, ctx.organization.id), page },
    (row) => row,
  );
  const links = await linksOf(
    ctx.db,
    ctx.organization.id,
    rows.items.map((row) => row.id),
  );
  return { items: rows.items.map((row) => monitorView(row, links.get(row.id) ?? [])), nextCursor: rows.nextCursor };
}

/** The row of a new tracked link (validated input → stored fields). */
export function newLinkRow(
  organizationId: string,
  monitorId: string,
  input: NewLinkInput,
  source: TrackedLinkRow["source"],
  now: Date,
  field = "target",
): typeof trackedLink.$inferInsert {
  const { target, match } = targetFor(input.target, input.match, field);
  return {
    id: randomUUID(),
    organizationId,
    monitorId,
    target,
    match,
    expectedAnchor: input.expectedAnchor ?? null,
    expectedRel: input.expectedRel ?? null,
    notes: input.notes ?? null,
    cost: input.cost ?? null,
    expiresOn: input.expiresOn ?? null,
    source,
    state: "pending",
    createdAt: now,
    updatedAt: now,
  };
}

export function duplicateTarget(target: string): ApiError {
  return new ApiError("CONFLICT", `${target} is already tracked on this page.`, {
    hint: "Edit the tracked link that exists instead of adding it twice.",
  });
}

/** Finds the monitor of `url` in the organization, or creates it (due at once). For tracking from an audit. */
export async function findOrCreateMonitor(tx: Tx, ctx: AccountContext, url: string, now: Date): Promise<MonitorRow> {
  const [existing] = await tx
    .select()
    .from(monitor)
    .where(owned(monitor, ctx.organization.id, eq(monitor.url, url)))
    .limit(1);
  if (existing) return existing;
  const [created] = await tx
    .insert(monitor)
    .values({
      id: randomUUID(),
      organizationId: ctx.organization.id,
      url,
      intervalMinutes: DEFAULT_INTERVAL,
      tags: [],
      nextCheckAt: now,
      createdById: ctx.user.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!created) throw new Error("monitor insert returned nothing");
  return created;
}

/** POST /monitors: the page (due at once: nextCheckAt = now) and its links in one transaction. */
export async function createMonitor(ctx: AccountContext, input: NewMonitorInput): Promise<MonitorView> {
  const url = monitorUrlFor(input.url, ctx.settings.ALLOW_PRIVATE_HOSTS);
  const intervalMinutes = input.intervalMinutes ?? DEFAULT_INTERVAL;
  assertInterval(intervalMinutes, ctx.settings.MONITOR_MIN_INTERVAL_MINUTES);
  const now = ctx.now();
  const id = randomUUID();
  // A millisecond apart, so the links keep the order they were given in (lists sort by creation).
  const links = (input.links ?? []).map((link, index) =>
    newLinkRow(ctx.organization.id, id, link, "manual", new Date(now.getTime() + index), `links.${index}.target`),
  );
  const seen = new Set<string>();
  for (const link of links) {
    if (seen.has(link.target)) throw duplicateTarget(link.target);
    seen.add(link.target);
  }
  try {
    return await ctx.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: monitor.id })
        .from(monitor)
        .where(owned(monitor, ctx.organization.id, eq(monitor.url, url)))
        .limit(1);
      if (existing) throw alreadyMonitored(url, existing.id);
      const [row] = await tx
        .insert(monitor)
        .values({
          id,
          organizationId: ctx.organization.id,
          url,
          intervalMinutes,
          tags: input.tags ?? [],
          googleView: input.googleView ?? true,
          nextCheckAt: now,
          createdById: ctx.user.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error("monitor insert returned nothing");
      const linkRows = links.length > 0 ? await tx.insert(trackedLink).values(links).returning() : [];
      return monitorView(row, linkRows);
    });
  } catch (error) {
    // Two requests for the same URL at once: the unique index decides, the loser gets the same 409.
    if (uniqueViolation(error) !== null) throw alreadyMonitored(url, null);
    throw error;
  }
}

function alreadyMonitored(url: string, id: string | null): ApiError {
  return new ApiError("CONFLICT", `${url} is already monitored in this organization${id ? ` (monitor ${id})` : ""}.`, {
    hint: "Add links to the existing monitor instead (POST /api/account/monitors/{id}/links).",
  });
}

/**
 * PATCH /monitors/{id}. Resuming makes the monitor due at once (a paused page may have changed, and the
 * due time it had may have passed). A new interval applies from the last check on (never in the past),
 * unless a confirming check or a page-error retry is already due sooner.
 */
export async function updateMonitor(
  ctx: AccountContext,
  monitorId: string,
  patch: MonitorPatchInput,
): Promise<MonitorView> {
  if (patch.intervalMinutes !== undefined)
    assertInterval(patch.intervalMinutes, ctx.settings.MONITOR_MIN_INTERVAL_MINUTES);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const row = await findMonitor(ctx, monitorId, tx);
    const changes: Partial<typeof monitor.$inferInsert> = { updatedAt: now };
    if (patch.tags !== undefined) changes.tags = patch.tags;
    if (patch.paused !== undefined) changes.paused = patch.paused;
    // Off: the next check renders no Google view and gives no reason of its own; on again: the last one
    // stands until a render is due (google-view.md §2).
    if (patch.googleView !== undefined) changes.googleView = patch.googleView;
    if (patch.intervalMinutes !== undefined && patch.intervalMinutes !== row.intervalMinutes) {
      changes.intervalMinutes = patch.intervalMinutes;
      const [awaiting] = await tx
        .select({ id: trackedLink.id })
        .from(trackedLink)
        .where(
          owned(
            trackedLink,
            ctx.organization.id,
            eq(trackedLink.monitorId, row.id),
            isNotNull(trackedLink.pendingState),
          ),
        )
        .limit(1);
      if (row.lastCheckedAt && row.status === "ok" && !awaiting) {
        changes.nextCheckAt = new Date(
          Math.max(now.getTime(), row.lastCheckedAt.getTime() + patch.intervalMinutes * 60_000),
        );
      }
    }
    if (row.paused && patch.paused === false) changes.nextCheckAt = now;
    const [updated] = await tx
      .update(monitor)
      .set(changes)
      .where(owned(monitor, ctx.organization.id, eq(monitor.id, row.id)))
      .returning();
    if (!updated) throw notFound("monitor");
    const links = await linksOf(tx, ctx.organization.id, [row.id]);
    return monitorView(updated, links.get(row.id) ?? []);
  });
}

/** DELETE /monitors/{id}: the page, its links, checks and history; recorded in the activity log. */
export async function deleteMonitor(ctx: AccountContext, monitorId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await findMonitor(ctx, monitorId, tx);
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(trackedLink)
      .where(owned(trackedLink, ctx.organization.id, eq(trackedLink.monitorId, row.id)));
    await retireLinks(tx, ctx.organization.id, { monitorId: row.id }, ctx.now());
    await tx.delete(monitor).where(owned(monitor, ctx.organization.id, eq(monitor.id, row.id)));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "monitor.delete",
      target: { type: "monitor", id: row.id },
      details: { url: row.url, links: count?.n ?? 0 },
    });
  });
}

/** Makes a monitor due now unless it already is (a link was added or re-targeted: check it soon, not in a day). */
export async function dueNow(
  tx: Pick<Db, "update">,
  organizationId: string,
  monitorId: string,
  now: Date,
): Promise<void> {
  await tx
    .update(monitor)
    .set({ nextCheckAt: sql`LEAST(${monitor.nextCheckAt}, ${now.toISOString()}::timestamptz)` })
    .where(owned(monitor, organizationId, eq(monitor.id, monitorId)));
}
