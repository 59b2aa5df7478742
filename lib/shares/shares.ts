import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import type { Db } from "../db/client";
import { recordActivity } from "../auth/activity-log";
import { findAudit } from "../account/audits";
import { keysetPage, type PageRequest } from "../db/keyset";
import { monitor, reportSchedule, share } from "../db/schema";
import { ApiError } from "../errors";
import { dropQueuedEmails, type DbOrTx } from "../mail/outbox";
import { findMonitor } from "../monitor/monitors";
import { owned } from "../monitor/scope";
import type { ShareSchedule } from "../schemas/share-schedules";
import type { CreatedShare, CreateShareInput, Share } from "../schemas/shares";
import { schedulesOf } from "./schedule-view";
import { newToken } from "./token";

/**
 * Share links (evidence-and-reports.md "Client reports"): create (admin+; the token is in the answer's
 * `url` this once and stored only as a hash), list (never a token), revoke. Creation and revocation are in
 * the activity log, without the token. Every query is scoped to the caller's organization.
 */

export type ShareRow = typeof share.$inferSelect;

/** The answer's shape; `schedule` from schedulesOf (./schedule-view.ts), null for a share without one. */
export function shareView(row: ShareRow, schedule: ShareSchedule | null): Share {
  return {
    id: row.id,
    title: row.title,
    scope: row.scope,
    tag: row.tag,
    monitorId: row.monitorId,
    auditId: row.auditId,
    createdAt: row.createdAt.toISOString(),
    createdBy: { id: row.createdById, email: row.createdByEmail },
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    schedule,
  };
}

/** The answer of POST: the listed fields and, after auditId, the URL with the token (a new share has no schedule). */
function createdView(row: ShareRow, url: string): CreatedShare {
  const { createdAt, createdBy, expiresAt, revokedAt, schedule, ...head } = shareView(row, null);
  return { ...head, url, createdAt, createdBy, expiresAt, revokedAt, schedule };
}

/** What the outbox's emails about a share's reports are `about` (lib/mail/outbox.ts dropQueuedEmails). */
export function shareEmailTopic(shareId: string): string {
  return `share:${shareId}`;
}

/**
 * Removes a share's schedule (its recipients go with it) and drops its report emails still waiting in the
 * outbox, in the caller's transaction. Answers whether there was a schedule.
 */
export async function endSchedule(tx: DbOrTx & Pick<Db, "delete">, shareId: string, reason: string): Promise<boolean> {
  const removed = await tx
    .delete(reportSchedule)
    .where(eq(reportSchedule.shareId, shareId))
    .returning({ shareId: reportSchedule.shareId });
  await dropQueuedEmails(tx, shareEmailTopic(shareId), reason);
  return removed.length > 0;
}

const notFound = () =>
  new ApiError("NOT_FOUND", "No share with this id in your organization.", {
    hint: "Use an id from GET /api/account/shares.",
  });

/** The tag must be on a monitor of the organization: a share of a misspelt tag would show nothing. */
async function assertTagInUse(ctx: AccountContext, tag: string): Promise<void> {
  const [used] = await ctx.db
    .select({ id: monitor.id })
    .from(monitor)
    .where(owned(monitor, ctx.organization.id, sql`${tag} = ANY(${monitor.tags})`))
    .limit(1);
  if (!used)
    throw new ApiError("INVALID_REQUEST", `tag: no monitored page of your organization has the tag "${tag}".`, {
      hint: "Use a tag of one of your monitors (tags are exact, case included).",
    });
}

/** POST /shares: checks what it names (another organization's monitor or audit: 404), then stores the hash. */
export async function createShare(ctx: AccountContext, input: CreateShareInput, origin: string): Promise<CreatedShare> {
  const now = ctx.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new ApiError("INVALID_REQUEST", "expiresAt: must be in the future.", {
      hint: "Give a time to come (ISO 8601 with an offset), or null for a link that does not expire.",
    });
  }
  if (input.scope === "monitor") await findMonitor(ctx, input.monitorId as string);
  if (input.scope === "audit") await findAudit(ctx, input.auditId as string);
  if (input.scope === "tag") await assertTagInUse(ctx, input.tag as string);
  const { token, hash } = newToken();
  const values: typeof share.$inferInsert = {
    id: randomUUID(),
    organizationId: ctx.organization.id,
    title: input.title,
    scope: input.scope,
    tag: input.scope === "tag" ? (input.tag ?? null) : null,
    monitorId: input.scope === "monitor" ? (input.monitorId ?? null) : null,
    auditId: input.scope === "audit" ? (input.auditId ?? null) : null,
    tokenHash: hash,
    createdById: ctx.user.id,
    createdByEmail: ctx.user.email,
    createdAt: now,
    expiresAt,
    revokedAt: null,
  };
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx.insert(share).values(values).returning();
    if (!created) throw new Error("share insert returned nothing");
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "share.created",
      target: { type: "share", id: created.id },
      details: {
        title: created.title,
        scope: created.scope,
        tag: created.tag,
        monitorId: created.monitorId,
        auditId: created.auditId,
        expiresAt: created.expiresAt?.toISOString() ?? null,
      },
    });
    return created;
  });
  return createdView(row, `${origin}/r/${token}`);
}

/** GET /shares: newest first, revoked and expired ones included (their times say so), each with its schedule. */
export async function listShares(ctx: AccountContext, page: PageRequest) {
  const keys = { createdAt: share.createdAt, id: share.id };
  const rows = await keysetPage(
    ctx.db.select().from(share).$dynamic(),
    { keys, direction: "desc", where: owned(share, ctx.organization.id), page },
    (row) => row,
  );
  const schedules = await schedulesOf(
    ctx.db,
    ctx.organization.id,
    rows.items.map((row) => row.id),
  );
  return {
    items: rows.items.map((row) => shareView(row, schedules.get(row.id) ?? null)),
    nextCursor: rows.nextCursor,
  };
}

/** One share of the organization as the API answers it, schedule included (404 when it is not there). */
export async function shareAnswer(ctx: Pick<AccountContext, "db" | "organization">, id: string): Promise<Share> {
  const row = await findShare(ctx, id);
  const schedules = await schedulesOf(ctx.db, ctx.organization.id, [row.id]);
  return shareView(row, schedules.get(row.id) ?? null);
}

/** The share row of the organization, or 404. */
export async function findShare(ctx: Pick<AccountContext, "db" | "organization">, id: string): Promise<ShareRow> {
  const [row] = await ctx.db
    .select()
    .from(share)
    .where(owned(share, ctx.organization.id, eq(share.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * DELETE /shares/{id}: its page answers 404 from now on, and its scheduled report ends (reports still
 * waiting in the outbox are dropped). Revoking twice changes (and logs) nothing.
 */
export async function revokeShare(ctx: AccountContext, id: string): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(share)
      .where(owned(share, ctx.organization.id, eq(share.id, id)))
      .limit(1)
      .for("update");
    if (!row) throw notFound();
    if (row.revokedAt) return;
    await tx
      .update(share)
      .set({ revokedAt: now })
      .where(and(owned(share, ctx.organization.id, eq(share.id, row.id)), isNull(share.revokedAt)));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "share.revoked",
      target: { type: "share", id: row.id },
      details: { title: row.title, scope: row.scope },
    });
    if (await endSchedule(tx, row.id, "The share was revoked."))
      await recordActivity(tx, {
        organizationId: ctx.organization.id,
        actor: ctx.user,
        action: "share.schedule_removed",
        target: { type: "share", id: row.id },
        details: { title: row.title, reason: "revoked" },
      });
  });
}
