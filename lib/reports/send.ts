import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { reportRecipient, reportSchedule, share } from "../db/schema";
import { log } from "../log";
import { isActive } from "../shares/open";
import { endFinishedSchedules } from "./ended";
import type { ReportLinks } from "./links";
import { makeReport, queueReport, type Printer } from "./make-report";
import { dueSend, type DueSend } from "./schedule-times";

/**
 * Scheduled reports going out, on every instance's scheduler tick. A report is due at its schedule's
 * `nextSendAt`. Exactly once across instances: an instance first claims the due report for a while
 * (`claimedUntil`, conditional on the due time it read), makes it (reads, prints: seconds), then in one
 * transaction locks the schedule, checks that it still has that due time, writes one outbox email per
 * confirmed recipient and moves the schedule to its next time. A second instance finds the claim, or
 * the due time moved, and writes nothing; a maker that died leaves its claim to run out, and another
 * instance makes the report then. The outbox delivers (and retries while the mail server is down).
 * However many times of the schedule passed while nothing ran, one report goes, covering all of it.
 */

export interface SendDeps {
  db: Db;
  settings: Config;
  /** The tick's clock (injectable in tests). */
  now: Date;
  links: ReportLinks;
  print: Printer;
}

/** Due reports made per tick and instance: a tick also enqueues checks, and a report takes seconds. */
const PER_TICK = 3;
/** How long a claim holds: a report of thousands of links prints within this. */
export const CLAIM_MS = 10 * 60_000;

/** Ends the schedules of revoked and expired shares, then makes the reports due; answers how many went out. */
export async function sendDueReports(deps: SendDeps): Promise<number> {
  await endFinishedSchedules(deps.db, deps.now);
  const due = await deps.db
    .select({ schedule: reportSchedule, share })
    .from(reportSchedule)
    .innerJoin(share, eq(share.id, reportSchedule.shareId))
    .where(
      and(
        lte(reportSchedule.nextSendAt, deps.now),
        or(isNull(reportSchedule.claimedUntil), lte(reportSchedule.claimedUntil, deps.now)),
      ),
    )
    .orderBy(asc(reportSchedule.nextSendAt), asc(reportSchedule.shareId))
    .limit(PER_TICK);
  let sent = 0;
  for (const { schedule, share: row } of due) {
    const send = dueSend(schedule, deps.now);
    if (!send || !isActive(row, deps.now)) continue;
    try {
      if (await sendOne(deps, schedule, row, send)) sent += 1;
    } catch (error) {
      // The claim stays until it runs out: the report is tried again then, by whichever instance.
      log.warn({ err: error, shareId: row.id }, "scheduled report failed; it will be tried again");
    }
  }
  return sent;
}

type ScheduleRow = typeof reportSchedule.$inferSelect;
type ShareRow = typeof share.$inferSelect;

async function claim(deps: SendDeps, schedule: ScheduleRow): Promise<boolean> {
  const claimed = await deps.db
    .update(reportSchedule)
    .set({ claimedUntil: new Date(deps.now.getTime() + CLAIM_MS) })
    .where(
      and(
        eq(reportSchedule.shareId, schedule.shareId),
        eq(reportSchedule.nextSendAt, schedule.nextSendAt),
        or(isNull(reportSchedule.claimedUntil), lte(reportSchedule.claimedUntil, deps.now)),
      ),
    )
    .returning({ shareId: reportSchedule.shareId });
  return claimed.length > 0;
}

async function confirmedRecipients(db: Pick<Db, "select">, shareId: string): Promise<string[]> {
  const rows = await db
    .select({ email: reportRecipient.email })
    .from(reportRecipient)
    .where(and(eq(reportRecipient.shareId, shareId), eq(reportRecipient.status, "confirmed")))
    .orderBy(asc(reportRecipient.email));
  return rows.map((row) => row.email);
}

/** Makes and queues one due report; false when another instance has it or nobody is to get it. */
async function sendOne(deps: SendDeps, schedule: ScheduleRow, row: ShareRow, send: DueSend): Promise<boolean> {
  if (!(await claim(deps, schedule))) return false;
  // Nobody confirmed yet: nothing to print; the schedule moves on, and the first report anyone gets
  // covers one period, as a first report does.
  const report =
    (await confirmedRecipients(deps.db, row.id)).length === 0
      ? null
      : await makeReport({
          db: deps.db,
          settings: deps.settings,
          links: deps.links,
          print: deps.print,
          share: row,
          cadence: schedule.cadence,
          period: send.period,
          sinceLastReport: schedule.lastSentAt !== null,
        });
  return deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(reportSchedule)
      .where(and(eq(reportSchedule.shareId, row.id), eq(reportSchedule.nextSendAt, schedule.nextSendAt)))
      .limit(1)
      .for("update");
    // Changed (a new time saved) or removed (revoked, deleted) while the report was made: it is not sent.
    if (!current) return false;
    const recipients = report ? await confirmedRecipients(tx, row.id) : [];
    if (report && recipients.length > 0) await queueReport(tx, report, { share: row, links: deps.links, recipients });
    await tx
      .update(reportSchedule)
      .set({
        nextSendAt: send.next,
        claimedUntil: null,
        ...(recipients.length > 0 ? { lastSentAt: send.period.end } : {}),
      })
      .where(eq(reportSchedule.shareId, row.id));
    return recipients.length > 0;
  });
}
