import { and, eq, isNotNull, lte, or } from "drizzle-orm";
import { recordActivity } from "../auth/activity-log";
import type { Db } from "../db/client";
import { reportSchedule, share } from "../db/schema";
import { endSchedule } from "../shares/shares";

/**
 * A revoked or expired share sends nothing and its schedule is removed. Revoking removes it at once
 * (lib/shares/shares.ts); an expiry has no request to act in, so every tick removes the schedules of
 * shares that expired, with what still waits in the outbox, and logs it (once: the delete decides which
 * instance logs). Answers how many it removed.
 */
export async function endFinishedSchedules(db: Db, now: Date): Promise<number> {
  const ended = await db
    .select({ id: share.id, organizationId: share.organizationId, title: share.title, revokedAt: share.revokedAt })
    .from(reportSchedule)
    .innerJoin(share, eq(share.id, reportSchedule.shareId))
    .where(or(isNotNull(share.revokedAt), and(isNotNull(share.expiresAt), lte(share.expiresAt, now))));
  let removed = 0;
  for (const row of ended) {
    const reason = row.revokedAt ? "revoked" : "expired";
    await db.transaction(async (tx) => {
      if (!(await endSchedule(tx, row.id, `The share ${reason === "revoked" ? "was revoked" : "expired"}.`))) return;
      removed += 1;
      await recordActivity(tx, {
        organizationId: row.organizationId,
        actor: null,
        action: "share.schedule_removed",
        target: { type: "share", id: row.id },
        details: { title: row.title, reason },
      });
    });
  }
  return removed;
}
