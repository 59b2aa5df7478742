import { createHash } from "node:crypto";
import { and, asc, desc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { JOB_QUEUES, JOB_SCHEMA } from "../db/jobs";
import type { Db } from "../db/client";
import { monitor } from "../db/schema";
import type { TickContext, TickTask } from "../db/tick";

/**
 * The dispatcher: every instance's tick turns due, unpaused monitors into pg-boss jobs. A job's id is
 * derived from (monitorId, nextCheckAt), so every instance's tick asks for the same job and pg-boss
 * keeps the first: each due time is enqueued once, however many instances run this.
 *
 * Fair across organizations (docs/account-api.md "Scheduling"). Due checks are taken ROUND-ROBIN by organization: each
 * organization's due monitors are ranked (its confirmations first, then oldest due first), the batch is
 * every organization's first, then every organization's second, …, and each job's pg-boss priority says
 * its round (checkPriority), so the workers, which fetch by priority, serve them in the same order. An
 * organization with 5,000 due monitors puts one job in each round, like an organization with one: the
 * other's due check waits for one tick (MONITOR_POLL_SECONDS) and for a worker to finish the check it is
 * running, never for the backlog. At the same round a confirmation (a first loss that the next check
 * must confirm, docs/spec/account-api.md) goes before a routine check. "Check now" does not queue at all: it
 * runs in its request, and its render goes before waiting scheduled ones (lib/analyzer/render/queue.ts).
 *
 * Why a dispatcher over the due index and not one pg-boss job per monitor enqueued ahead of time: the
 * queue only has to stay ahead of the workers (DUE_BATCH), the order is decided when a check is due
 * (with what is due then), and the monitor table stays the one truth about when a check is due.
 */

/**
 * Due checks asked for per tick (the first rounds). Every instance asks for the same ones, so this per
 * MONITOR_POLL_SECONDS is the whole fleet's dispatch capacity: 1,000 per 10 s is 100 checks/s, eight
 * times the 12 checks/s a million links checked daily need (docs/scaling.md); 100 capped the fleet at
 * 10/s. It stays a shallow queue for pg-boss, whose fetch sorts every ready job: ~30–90 ms per fetch with
 * 1,000 queued against 0.3–1 s with 100,000 (measured, `npm run bench:jobs`).
 */
export const DUE_BATCH = 1_000;

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
export function checkJobOptions(expireSeconds: number) {
  return {
    expireInSeconds: expireSeconds,
    retryLimit: 10,
    retryDelay: Math.max(1, Math.min(60, Math.floor(expireSeconds / 4))),
    retryBackoff: true,
  };
}

/**
 * The pg-boss priority of a check (higher first): its round within its organization (1 = the
 * organization's most urgent due check), and at the same round a confirmation before a routine check.
 */
export function checkPriority(round: number, confirming: boolean): number {
  return -2 * round + (confirming ? 1 : 0);
}

/** A due monitor as the dispatcher sees it. */
export interface DueCheck {
  id: string;
  organizationId: string;
  nextCheckAt: Date;
  /** A tracked link awaits confirmation of a loss. */
  confirming: boolean;
  /** Its round: 1 for its organization's most urgent due check, 2 for the next, … */
  round: number;
}

/** The first `limit` due checks in dispatch order (round, confirmations first, oldest due first). */
export async function pickDueChecks(db: Db, now: Date, limit: number): Promise<DueCheck[]> {
  // Spelled out: inside a subquery's selection Drizzle leaves columns unqualified, and "id" would be the tracked link's.
  const confirming = sql<boolean>`exists (select 1 from tracked_link awaiting where awaiting.monitor_id = monitor.id and awaiting.pending_state is not null)`;
  const ranked = db
    .select({
      id: monitor.id,
      organizationId: monitor.organizationId,
      nextCheckAt: monitor.nextCheckAt,
      confirming: confirming.as("confirming"),
      round:
        sql<number>`(row_number() over (partition by ${monitor.organizationId} order by ${confirming} desc, ${monitor.nextCheckAt}, ${monitor.id}))::int`.as(
          "round",
        ),
    })
    .from(monitor)
    .where(and(eq(monitor.paused, false), lte(monitor.nextCheckAt, now)))
    .as("due");
  const rows = await db
    .select()
    .from(ranked)
    .orderBy(asc(ranked.round), desc(ranked.confirming), asc(ranked.nextCheckAt), asc(ranked.id))
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    nextCheckAt: new Date(row.nextCheckAt),
    confirming: row.confirming === true,
    round: Number(row.round),
  }));
}

/** The job of each due check, with its priority; pg-boss skips the ids it already has. */
function jobsOf(due: readonly DueCheck[], expireSeconds: number): PgBoss.JobInsert<CheckJobData>[] {
  return due.map((row) => ({
    id: checkJobId(row.id, row.nextCheckAt),
    name: JOB_QUEUES.monitorCheck,
    data: { organizationId: row.organizationId, monitorId: row.id, dueAt: row.nextCheckAt.toISOString() },
    priority: checkPriority(row.round, row.confirming),
    ...checkJobOptions(expireSeconds),
  }));
}

/**
 * Long overdue with a finished job (it found the monitor paused or busy and gave up, or ran out of
 * retries): that due time can never be enqueued again. Moves those due times to now (a new job id)
 * unless a check holds the monitor; the conditions make a stale read harmless.
 */
async function healFinished(db: Db, due: readonly DueCheck[], now: Date, expireSeconds: number): Promise<void> {
  const stale = due.filter((row) => now.getTime() - row.nextCheckAt.getTime() >= expireSeconds * 1000);
  if (stale.length === 0) return;
  const ids = sql.join(
    stale.map((row) => sql`${checkJobId(row.id, row.nextCheckAt)}::uuid`),
    sql`, `,
  );
  const result = await db.execute(
    sql`select id::text as id from ${sql.raw(JOB_SCHEMA)}.job where name = ${JOB_QUEUES.monitorCheck} and id in (${ids}) and state in ('completed', 'failed', 'cancelled')`,
  );
  // node-postgres and PGlite both answer { rows }.
  const finished = new Set((result as unknown as { rows: Array<{ id: string }> }).rows.map((row) => row.id));
  for (const row of stale) {
    if (!finished.has(checkJobId(row.id, row.nextCheckAt))) continue;
    await db
      .update(monitor)
      .set({ nextCheckAt: now })
      .where(
        and(
          eq(monitor.id, row.id),
          eq(monitor.nextCheckAt, row.nextCheckAt),
          or(isNull(monitor.checkingUntil), lte(monitor.checkingUntil, now)),
        ),
      );
  }
}

export const enqueueDueChecks: TickTask = {
  name: "monitor-checks",
  async run({ db, boss, config, now }: TickContext) {
    const due = await pickDueChecks(db, now, DUE_BATCH);
    if (due.length === 0) return;
    const expireSeconds = config.MONITOR_JOB_EXPIRE_SECONDS;
    // One statement for the whole batch (ON CONFLICT DO NOTHING: the jobs already there keep theirs).
    await boss.insert(jobsOf(due, expireSeconds));
    await healFinished(db, due, now, expireSeconds);
  },
};
