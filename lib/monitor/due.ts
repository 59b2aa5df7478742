import { createHash } from "node:crypto";
import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import { JOB_QUEUES } from "../db/jobs";
import { monitor } from "../db/schema";
import type { TickContext, TickTask } from "../db/tick";

/**
 * Enqueues due, unpaused monitors as pg-boss jobs. A job's id is derived from (monitorId, nextCheckAt),
 * so every instance's tick asks for the same job and pg-boss keeps the first (`send` answers null for
 * the others): each due time is enqueued once, however many instances run this.
 */

/** Due monitors enqueued per tick (oldest first): the queue only has to stay ahead of the workers. */
export const DUE_BATCH = 100;

export interface CheckJobData {
  organizationId: string;
  monitorId: string;
  /** The monitor's nextCheckAt this job is for (ISO 8601): the worker's fence. */
  dueAt: string;
}

/** A UUID (pg-boss ids are UUIDs) that is a pure function of the monitor and its due time. */
export function checkJobId(monitorId: string, dueAt: Date): string {
  const hex = createHash("sha256").update(`monitor-check|${monitorId}|${dueAt.toISOString()}`).digest("hex");
  // Shaped as a version-5-style UUID: version nibble 5, RFC 4122 variant.
  const variant = ((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16).padStart(2, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/** Job options of a check: expiry (a killed worker's check comes back after it) and retries with backoff. */
export function checkJobOptions(id: string, expireSeconds: number) {
  return { id, expireInSeconds: expireSeconds, retryLimit: 10, retryDelay: Math.max(1, Math.min(60, Math.floor(expireSeconds / 4))), retryBackoff: true };
}

const FINISHED = new Set(["completed", "failed", "cancelled"]);

export const enqueueDueChecks: TickTask = {
  name: "monitor-checks",
  async run({ db, boss, config, now }: TickContext) {
    const due = await db
      .select({ id: monitor.id, organizationId: monitor.organizationId, nextCheckAt: monitor.nextCheckAt })
      .from(monitor)
      .where(and(eq(monitor.paused, false), lte(monitor.nextCheckAt, now)))
      .orderBy(asc(monitor.nextCheckAt), asc(monitor.id))
      .limit(DUE_BATCH);
    const expireSeconds = config.MONITOR_JOB_EXPIRE_SECONDS;
    for (const row of due) {
      const id = checkJobId(row.id, row.nextCheckAt);
      const data: CheckJobData = { organizationId: row.organizationId, monitorId: row.id, dueAt: row.nextCheckAt.toISOString() };
      const sent = await boss.send(JOB_QUEUES.monitorCheck, data, checkJobOptions(id, expireSeconds));
      if (sent !== null || now.getTime() - row.nextCheckAt.getTime() < expireSeconds * 1000) continue;
      // Long overdue and its job exists: if that job is finished (it found the monitor paused or busy and
      // gave up, or ran out of retries), this due time can never be enqueued again. Move the due time to
      // now (a new job id) unless a check holds the monitor; the conditions make a stale read harmless.
      const job = await boss.getJobById(JOB_QUEUES.monitorCheck, id, { includeArchive: true });
      if (job && !FINISHED.has(job.state)) continue;
      await db
        .update(monitor)
        .set({ nextCheckAt: now })
        .where(and(eq(monitor.id, row.id), eq(monitor.nextCheckAt, row.nextCheckAt), or(isNull(monitor.checkingUntil), lte(monitor.checkingUntil, now))));
    }
  },
};
