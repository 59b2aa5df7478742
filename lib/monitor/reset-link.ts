import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { linkTransition, type trackedLink } from "../db/schema";
import { recordVerdictChange } from "./verdict-history";
import type { TrackedLinkRow } from "./views";

/**
 * A tracked link given another target or match mode is another placement: it starts again at `pending`,
 * with nothing observed, no verdict and no dates. Its history records the reset (a state change to
 * pending, a verdict change to none), so the daily counts move it out of its old state and verdict on the
 * day of the edit. `link` is the row as locked in the same transaction: a check that stored its result
 * meanwhile is what the reset moves on from. Answers the columns to write with the edit's own.
 */
export async function resetToPending(
  tx: Pick<Db, "insert">,
  link: Pick<TrackedLinkRow, "id" | "organizationId" | "monitorId" | "state" | "current" | "verdict">,
  now: Date,
): Promise<Partial<typeof trackedLink.$inferInsert>> {
  if (link.state !== "pending") {
    await tx.insert(linkTransition).values({
      id: randomUUID(),
      organizationId: link.organizationId,
      trackedLinkId: link.id,
      monitorId: link.monitorId,
      checkId: null,
      fromState: link.state,
      toState: "pending",
      before: link.current ?? null,
      after: null,
      createdAt: now,
    });
  }
  await recordVerdictChange(tx, {
    organizationId: link.organizationId,
    trackedLinkId: link.id,
    checkId: null,
    before: link.verdict ?? null,
    after: null,
    at: now,
  });
  return {
    state: "pending",
    pendingState: null,
    pendingCount: 0,
    current: null,
    verdict: null,
    matchCount: null,
    firstSeenAt: null,
    lastSeenAt: null,
  };
}
