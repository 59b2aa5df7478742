import { randomUUID } from "node:crypto";
import { and, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { AccountContext, OrganizationScope } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import type { Db } from "../db/client";
import { keysetPage, type PageRequest } from "../db/keyset";
import { audit, auditLink, linkTransition, monitor, trackedLink } from "../db/schema";
import { ApiError } from "../errors";
import { uniqueViolation } from "../db/errors";
import { duplicateTarget, dueNow, findMonitor, findOrCreateMonitor, newLinkRow } from "./monitors";
import type { LinkFilters, LinkPatchInput, NewLinkInput } from "../schemas/monitors";
import { notFound, owned } from "./scope";
import { retireLinks } from "./retire";
import { resetToPending } from "./reset-link";
import { relOf } from "./state";
import { monitorUrlFor, targetFor } from "./targets";
import { trackedLinkView, transitionView, type TrackedLinkRow, type TrackedLinkView } from "./views";

/**
 * Tracked links: add one to a page, list the organization's (the link builder's view, with filters), read,
 * change, delete, read its history of state changes, and track a link of a saved audit. Every query is
 * scoped to the caller's organization (scope.ts).
 */

export async function findLink(
  ctx: OrganizationScope,
  linkId: string,
  db: Pick<Db, "select"> = ctx.db,
  options: { lock?: boolean } = {},
): Promise<TrackedLinkRow> {
  const organizationId = ctx.organization.id;
  const query = db
    .select()
    .from(trackedLink)
    .where(owned(trackedLink, organizationId, eq(trackedLink.id, linkId)));
  const [row] = await (options.lock ? query.for("update") : query).limit(1);
  if (!row) throw notFound("tracked link");
  return row;
}

async function insertLink(
  db: Db,
  ctx: AccountContext,
  monitorId: string,
  row: typeof trackedLink.$inferInsert,
  now: Date,
): Promise<TrackedLinkView> {
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: trackedLink.id })
        .from(trackedLink)
        .where(
          owned(
            trackedLink,
            ctx.organization.id,
            eq(trackedLink.monitorId, monitorId),
            eq(trackedLink.target, row.target),
          ),
        )
        .limit(1);
      if (existing) throw duplicateTarget(row.target);
      const [created] = await tx.insert(trackedLink).values(row).returning();
      if (!created) throw new Error("tracked link insert returned nothing");
      await dueNow(tx, ctx.organization.id, monitorId, now);
      return trackedLinkView(created);
    });
  } catch (error) {
    if (uniqueViolation(error) !== null) throw duplicateTarget(row.target);
    throw error;
  }
}

/** POST /monitors/{id}/links: one more tracked link on a page; the page becomes due so it is checked soon. */
export async function addLink(ctx: AccountContext, monitorId: string, input: NewLinkInput): Promise<TrackedLinkView> {
  const page = await findMonitor(ctx, monitorId);
  const now = ctx.now();
  return insertLink(ctx.db, ctx, page.id, newLinkRow(ctx.organization.id, page.id, input, "manual", now), now);
}

/** `%` and `_` are literal in a search, not wildcards. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE of the link list and the export (tracked_link joined with its monitor). */
export function linkFilterWhere(organizationId: string, filters: LinkFilters): SQL {
  const pattern = filters.q ? containing(filters.q) : null;
  return owned(
    trackedLink,
    organizationId,
    filters.state ? eq(trackedLink.state, filters.state) : undefined,
    filters.monitorId ? eq(trackedLink.monitorId, filters.monitorId) : undefined,
    filters.tag ? sql`${filters.tag} = ANY(${monitor.tags})` : undefined,
    filters.verdict ? sql`(${trackedLink.verdict} ->> 'value') = ${filters.verdict}` : undefined,
    pattern
      ? or(
          ilike(trackedLink.target, pattern),
          ilike(monitor.url, pattern),
          ilike(trackedLink.notes, pattern),
          ilike(trackedLink.expectedAnchor, pattern),
          sql`(${trackedLink.current} ->> 'anchorText') ILIKE ${pattern}`,
        )
      : undefined,
  );
}

/** GET /links: every tracked link of the organization, newest first, filtered, a page at a time. */
export async function listLinks(ctx: AccountContext, filters: LinkFilters, page: PageRequest) {
  const query = ctx.db
    .select({ link: trackedLink })
    .from(trackedLink)
    .innerJoin(
      monitor,
      and(eq(monitor.id, trackedLink.monitorId), eq(monitor.organizationId, trackedLink.organizationId)),
    )
    .$dynamic();
  const keys = { createdAt: trackedLink.createdAt, id: trackedLink.id };
  return keysetPage(
    query,
    { keys, direction: "desc", where: linkFilterWhere(ctx.organization.id, filters), page, keyOf: (row) => row.link },
    (row) => trackedLinkView(row.link),
  );
}

export async function getLink(ctx: AccountContext, linkId: string): Promise<TrackedLinkView> {
  return trackedLinkView(await findLink(ctx, linkId));
}

/**
 * PATCH /links/{id}. A new target or match mode is another link: it goes back to `pending` (its history
 * records the reset) and its page becomes due so it is checked soon. Expectations apply from the next check.
 */
export async function updateLink(ctx: AccountContext, linkId: string, patch: LinkPatchInput): Promise<TrackedLinkView> {
  const now = ctx.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      // Locked: a check storing its result meanwhile must not be overwritten with a history that missed it.
      const row = await findLink(ctx, linkId, tx, { lock: true });
      const changes: Partial<typeof trackedLink.$inferInsert> = { updatedAt: now };
      if (patch.target !== undefined || patch.match !== undefined) {
        // A new target without a match mode gets the default for it; a new match mode re-reads the stored target.
        const next =
          patch.target !== undefined ? targetFor(patch.target, patch.match) : targetFor(row.target, patch.match);
        if (next.target !== row.target || next.match !== row.match) {
          if (next.target !== row.target) {
            const [clash] = await tx
              .select({ id: trackedLink.id })
              .from(trackedLink)
              .where(
                owned(
                  trackedLink,
                  ctx.organization.id,
                  eq(trackedLink.monitorId, row.monitorId),
                  eq(trackedLink.target, next.target),
                ),
              )
              .limit(1);
            if (clash) throw duplicateTarget(next.target);
          }
          Object.assign(changes, { target: next.target, match: next.match }, await resetToPending(tx, row, now));
          await dueNow(tx, ctx.organization.id, row.monitorId, now);
        }
      }
      for (const key of ["expectedAnchor", "expectedRel", "notes", "cost", "expiresOn"] as const) {
        if (patch[key] !== undefined) (changes as Record<string, unknown>)[key] = patch[key];
      }
      const [updated] = await tx
        .update(trackedLink)
        .set(changes)
        .where(owned(trackedLink, ctx.organization.id, eq(trackedLink.id, row.id)))
        .returning();
      if (!updated) throw notFound("tracked link");
      return trackedLinkView(updated);
    });
  } catch (error) {
    if (uniqueViolation(error) !== null) throw duplicateTarget(patch.target ?? "This target");
    throw error;
  }
}

/** DELETE /links/{id}; recorded in the activity log. */
export async function deleteLink(ctx: AccountContext, linkId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await findLink(ctx, linkId, tx);
    const [page] = await tx
      .select({ url: monitor.url })
      .from(monitor)
      .where(owned(monitor, ctx.organization.id, eq(monitor.id, row.monitorId)))
      .limit(1);
    await retireLinks(tx, ctx.organization.id, { linkId: row.id }, ctx.now());
    await tx.delete(trackedLink).where(owned(trackedLink, ctx.organization.id, eq(trackedLink.id, row.id)));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "tracked_link.delete",
      target: { type: "tracked_link", id: row.id },
      details: { monitorId: row.monitorId, pageUrl: page?.url ?? null, target: row.target },
    });
  });
}

/** GET /links/{id}/history: its state changes, newest first, a page at a time. */
export async function linkHistory(ctx: AccountContext, linkId: string, page: PageRequest) {
  const row = await findLink(ctx, linkId);
  const keys = { createdAt: linkTransition.createdAt, id: linkTransition.id };
  const where = owned(linkTransition, ctx.organization.id, eq(linkTransition.trackedLinkId, row.id));
  return keysetPage(
    ctx.db.select().from(linkTransition).$dynamic(),
    { keys, direction: "desc", where, page },
    transitionView,
  );
}

/**
 * POST /audits/{id}/track {position}: track the link at that position of a saved audit on the audit's page
 * (the monitor is found or created): exact match on its href, its current rel as the expectation.
 */
export async function trackFromAudit(ctx: AccountContext, auditId: string, position: number): Promise<TrackedLinkView> {
  const [saved] = await ctx.db
    .select({ id: audit.id, url: audit.url })
    .from(audit)
    .where(owned(audit, ctx.organization.id, eq(audit.id, auditId)))
    .limit(1);
  if (!saved) throw notFound("audit");
  const [link] = await ctx.db
    .select()
    .from(auditLink)
    .where(and(eq(auditLink.auditId, saved.id), eq(auditLink.position, position)))
    .limit(1);
  if (!link)
    throw new ApiError("INVALID_REQUEST", `position: this audit has no link at position ${position}.`, {
      hint: "Use a position from the audit's links (1-based).",
    });
  if (link.linkType === "ignored") {
    throw new ApiError(
      "INVALID_REQUEST",
      `position: the link at position ${position} is ignored (${link.href.slice(0, 100)}); only http(s) links can be tracked.`,
    );
  }
  const url = monitorUrlFor(saved.url, ctx.settings.ALLOW_PRIVATE_HOSTS);
  const now = ctx.now();
  const target = targetFor(link.href, "exact", "position");
  const row: Omit<typeof trackedLink.$inferInsert, "monitorId"> = {
    id: randomUUID(),
    organizationId: ctx.organization.id,
    target: target.target,
    match: "exact",
    expectedAnchor: null,
    expectedRel: relOf(link),
    source: "audit",
    state: "pending",
    createdAt: now,
    updatedAt: now,
  };
  try {
    return await ctx.db.transaction(async (tx) => {
      const page = await findOrCreateMonitor(tx, ctx, url, now);
      const [existing] = await tx
        .select({ id: trackedLink.id })
        .from(trackedLink)
        .where(
          owned(
            trackedLink,
            ctx.organization.id,
            eq(trackedLink.monitorId, page.id),
            eq(trackedLink.target, row.target),
          ),
        )
        .limit(1);
      if (existing) throw duplicateTarget(row.target);
      const [created] = await tx
        .insert(trackedLink)
        .values({ ...row, monitorId: page.id })
        .returning();
      if (!created) throw new Error("tracked link insert returned nothing");
      await dueNow(tx, ctx.organization.id, page.id, now);
      return trackedLinkView(created);
    });
  } catch (error) {
    if (uniqueViolation(error) !== null) throw duplicateTarget(row.target);
    throw error;
  }
}
