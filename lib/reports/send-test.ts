import { eq } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import { reportSchedule, user } from "../db/schema";
import { ApiError } from "../errors";
import type { SentTest } from "../schemas/share-schedules";
import { findShare } from "../shares/shares";
import { configuredReportLinks } from "./links";
import { makeReport, productPrinter, queueReport, type Printer } from "./make-report";
import { reportPeriod } from "./schedule-times";
import { scheduleRefusal } from "./schedules";

/**
 * POST /api/account/shares/{id}/send-test (admin+): the scheduled report's email, PDF attached, made now
 * and sent to the caller only, through the outbox like every email. It needs a schedule (its cadence
 * says what the period is: since the last report, or one period back) on a share that may still send,
 * and a confirmed address: the caller's own, as their account has it. Nothing about the schedule changes.
 */
export async function sendTestReport(
  ctx: AccountContext,
  shareId: string,
  print: Printer = productPrinter(ctx.settings),
): Promise<SentTest> {
  const row = await findShare(ctx, shareId);
  const now = ctx.now();
  const [schedule] = await ctx.db.select().from(reportSchedule).where(eq(reportSchedule.shareId, row.id)).limit(1);
  if (!schedule)
    throw new ApiError("CONFLICT", "This share has no scheduled report to test.", {
      hint: "Set a schedule first: PUT /api/account/shares/{id}/schedule.",
    });
  const refusal = scheduleRefusal(row, now);
  if (refusal) throw refusal;
  const [caller] = await ctx.db
    .select({ emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, ctx.user.id))
    .limit(1);
  if (!caller?.emailVerified)
    throw new ApiError("CONFLICT", "Your email address is not confirmed yet, so no report goes to it.", {
      hint: "Follow the link of the confirmation email LinkLens sent you, then send the test again.",
    });
  const links = configuredReportLinks(ctx.settings);
  const report = await makeReport({
    db: ctx.db,
    settings: ctx.settings,
    links,
    print,
    share: row,
    cadence: schedule.cadence,
    period: reportPeriod(schedule.cadence, schedule.lastSentAt, now),
    sinceLastReport: schedule.lastSentAt !== null,
  });
  const to = ctx.user.email.toLowerCase();
  const subject = await ctx.db.transaction(async (tx) => {
    const queued = await queueReport(tx, report, { share: row, links, recipients: [to], test: true });
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "share.test_sent",
      target: { type: "share", id: row.id },
      details: { title: row.title, to },
    });
    return queued;
  });
  return { to, subject };
}
