import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { verdictTransition } from "../db/schema";
import type { Verdict } from "../schemas/verdict";

/**
 * A tracked link's verdict changes, kept for history (the daily counts of lib/stats work back from them):
 * every change of the value, the first verdict (from null) and a reset to null (a new target) included; a
 * change of reasons alone is none. Written in the transaction that stores the verdict, so the counts now
 * and the changes never disagree.
 */
export interface VerdictChange {
  organizationId: string;
  trackedLinkId: string;
  /** The check that moved it; null for an edit. */
  checkId: string | null;
  before: Verdict | null;
  after: Verdict | null;
  at: Date;
}

export async function recordVerdictChange(tx: Pick<Db, "insert">, change: VerdictChange): Promise<void> {
  const fromValue = change.before?.value ?? null;
  const toValue = change.after?.value ?? null;
  if (fromValue === toValue) return;
  await tx.insert(verdictTransition).values({
    id: randomUUID(),
    organizationId: change.organizationId,
    trackedLinkId: change.trackedLinkId,
    checkId: change.checkId,
    fromValue,
    toValue,
    createdAt: change.at,
  });
}
