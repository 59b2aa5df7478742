import { inArray, lt } from "drizzle-orm";
import type { TickTask } from "../db/tick";
import { evidence } from "../db/schema";

/**
 * Evidence retention (EVIDENCE_RETENTION_DAYS, default 400): every scheduler tick deletes records older
 * than that, a bounded batch at a time (oldest first, by the captured_at index), so a backlog after a
 * long pause or a lowered setting drains over a few ticks without one long statement. Any number of
 * instances may run it at once: deleting a row twice is harmless.
 */

/** Rows deleted per statement; a tick runs statements until a batch comes back short. */
export const RETENTION_BATCH = 500;
/** At most this many batches per tick, so the tick's other tasks are never held up for long. */
const MAX_BATCHES_PER_TICK = 20;

export async function deleteExpiredEvidence(
  db: Parameters<TickTask["run"]>[0]["db"],
  now: Date,
  retentionDays: number,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_TICK; batch += 1) {
    const expired = db
      .select({ id: evidence.id })
      .from(evidence)
      .where(lt(evidence.capturedAt, cutoff))
      .orderBy(evidence.capturedAt)
      .limit(RETENTION_BATCH);
    const gone = await db.delete(evidence).where(inArray(evidence.id, expired)).returning({ id: evidence.id });
    deleted += gone.length;
    if (gone.length < RETENTION_BATCH) break;
  }
  return deleted;
}

/** How often one instance looks for expired evidence (records expire by the day; a tick comes every few seconds). */
export const RETENTION_EVERY_MS = 10 * 60_000;

/** The tick's retention task: at the first tick, then every RETENTION_EVERY_MS of the scheduler's clock. */
export function evidenceRetentionTask(): TickTask {
  let lastRun: number | null = null;
  return {
    name: "evidence-retention",
    async run({ db, now, config }) {
      if (lastRun !== null && now.getTime() - lastRun < RETENTION_EVERY_MS && now.getTime() >= lastRun) return;
      await deleteExpiredEvidence(db, now, config.EVIDENCE_RETENTION_DAYS);
      lastRun = now.getTime();
    },
  };
}
