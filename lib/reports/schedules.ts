import { eq } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import { resolveAuthSecret } from "../db/secret";
import { reportSchedule, share } from "../db/schema";
import { ApiError } from "../errors";
import { owned } from "../monitor/scope";
import { scheduleWords, type ScheduleBody } from "../schemas/share-schedules";
import type { Share } from "../schemas/shares";
import { isActive } from "../shares/open";
import { endSchedule, findShare, shareAnswer, type ShareRow } from "../shares/shares";
import { resolveBranding } from "../branding";
import { configuredReportLinks } from "./links";
import { applyRecipients } from "./recipients";
import { ensureReportLink } from "./report-link";
import { nextSendAt, type ScheduleTimes } from "./schedule-times";

/**
 * PUT and DELETE /api/account/shares/{id}/schedule (admin+): a share's scheduled report, set whole or
 * removed. Setting one on a revoked or expired share, or on a saved audit's (a saved audit never
 * changes, so there is nothing to report on a schedule), is 409. The share row is locked while its
 * schedule changes, so two admins saving at once apply one after the other. Both are in the activity log.
 */

/** Why a share cannot have a schedule now, as the 409 says it; null when it can. */
export function scheduleRefusal(row: ShareRow, now: Date): ApiError | null {
  if (row.revokedAt)
    return new ApiError("CONFLICT", "This share is revoked: a revoked share sends no reports.", {
      hint: "Create a new report link and schedule its reports.",
    });
  if (!isActive(row, now))
    return new ApiError("CONFLICT", "This share has expired: an expired share sends no reports.", {
      hint: "Create a new report link (with a later expiry, or none) and schedule its reports.",
    });
  if (row.scope === "audit")
    return new ApiError(
      "CONFLICT",
      "A saved audit's share cannot have a scheduled report: a saved audit never changes.",
      {
        hint: "Schedule the report of a tag's or a monitored page's share instead.",
      },
    );
  return null;
}

function timesOf(body: ScheduleBody): ScheduleTimes {
  return {
    cadence: body.cadence,
    weekday: body.cadence === "weekly" ? (body.weekday ?? null) : null,
    dayOfMonth: body.cadence === "monthly" ? (body.dayOfMonth ?? null) : null,
    hourUtc: body.hourUtc,
  };
}

const sameTimes = (a: ScheduleTimes, b: ScheduleTimes) =>
  a.cadence === b.cadence && a.weekday === b.weekday && a.dayOfMonth === b.dayOfMonth && a.hourUtc === b.hourUtc;

async function lockedShare(
  ctx: AccountContext,
  tx: Parameters<Parameters<AccountContext["db"]["transaction"]>[0]>[0],
  id: string,
) {
  const [row] = await tx
    .select()
    .from(share)
    .where(owned(share, ctx.organization.id, eq(share.id, id)))
    .limit(1)
    .for("update");
  // Found a moment ago by findShare; gone only if deleted since (its monitor or audit deleted).
  if (!row) throw new ApiError("NOT_FOUND", "No share with this id in your organization.");
  return row;
}

/** PUT: the schedule as given; an unchanged time keeps the next send, a new one counts from now. */
export async function setSchedule(ctx: AccountContext, shareId: string, body: ScheduleBody): Promise<Share> {
  await findShare(ctx, shareId);
  const now = ctx.now();
  const times = timesOf(body);
  const links = configuredReportLinks(ctx.settings);
  const branding = await resolveBranding(ctx.db, ctx.organization.id);
  await ctx.db.transaction(async (tx) => {
    const row = await lockedShare(ctx, tx, shareId);
    const refusal = scheduleRefusal(row, now);
    if (refusal) throw refusal;
    const [existing] = await tx.select().from(reportSchedule).where(eq(reportSchedule.shareId, row.id)).limit(1);
    const next = existing && sameTimes(existing, times) ? existing.nextSendAt : nextSendAt(times, now);
    if (existing)
      await tx
        .update(reportSchedule)
        .set({ ...times, nextSendAt: next, updatedAt: now })
        .where(eq(reportSchedule.shareId, row.id));
    else
      await tx.insert(reportSchedule).values({
        shareId: row.id,
        organizationId: ctx.organization.id,
        ...times,
        nextSendAt: next,
        createdAt: now,
        updatedAt: now,
      });
    await ensureReportLink(tx, row.id, resolveAuthSecret(ctx.settings), row.reportLinkHash);
    const changes = await applyRecipients(
      tx,
      {
        organizationId: ctx.organization.id,
        shareId: row.id,
        reportTitle: row.title,
        organizationName: branding.name,
        cadence: times.cadence,
        when: scheduleWords(times),
        links,
        now,
      },
      body.recipients,
    );
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "share.schedule_set",
      target: { type: "share", id: row.id },
      details: { title: row.title, ...times, recipients: body.recipients, ...changes },
    });
  });
  return shareAnswer(ctx, shareId);
}

/** DELETE: the schedule and its recipients go, and reports still waiting in the outbox are dropped. */
export async function removeSchedule(ctx: AccountContext, shareId: string): Promise<void> {
  await findShare(ctx, shareId);
  await ctx.db.transaction(async (tx) => {
    const row = await lockedShare(ctx, tx, shareId);
    if (!(await endSchedule(tx, row.id, "The scheduled report was removed."))) return;
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "share.schedule_removed",
      target: { type: "share", id: row.id },
      details: { title: row.title, reason: "removed" },
    });
  });
}
