import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { PageReport } from "../analyzer";
import type { NewAlertEvent } from "../alerts/events";
import type { Db } from "../db/client";
import { linkObservation, linkTransition, trackedLink } from "../db/schema";
import { toStoredLink } from "../db/stored-link";
import { evidenceReason } from "../evidence/reason";
import type { EvidenceRecord } from "../evidence/record";
import { verdictEventDue, type GoogleReading } from "../verdict";
import { wasLive, type CheckEvidence } from "./check-evidence";
import { currentLink, judgeLink, pageFacts, type LinkJudgement } from "./placement";
import { owned } from "./scope";
import { recordVerdictChange } from "./verdict-history";
import type { MonitorRow, TrackedLinkRow } from "./views";

/**
 * The tracked links' part of a check's transaction (store-check.ts), for a page that loaded: each link is
 * judged as the evidence pre-pass judged it (placement.ts: best match, state machine, verdict), then, in
 * this order, its evidence record is decided, its observation and state transition are written, its verdict
 * change is kept for history (verdict-history.ts), its row is updated, and its alert events are collected.
 * The events and evidence are written later in the same transaction, once the monitor's claim is confirmed.
 */

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** What every step of one check's transaction shares: the transaction, the monitor, the check's id and time. */
export interface CheckWrite {
  tx: Tx;
  row: MonitorRow;
  checkId: string;
  finishedAt: Date;
}

/** What the links' results leave for the rest of the transaction. */
export interface LinkResults {
  /** Alert events of the links, in link order (each link's state events, then its verdict change). */
  events: NewAlertEvent[];
  /** Evidence records to keep, in link order. */
  proofs: EvidenceRecord[];
  /** A link waits for a confirming check, or was added or re-targeted during the render: check again soon. */
  awaitingConfirmation: boolean;
}

/** Records what the loaded page says about each tracked link of the monitor, in the module comment's order. */
export async function recordLinkResults(
  write: CheckWrite,
  checked: readonly TrackedLinkRow[],
  report: PageReport,
  shots: CheckEvidence | null,
  confirmChecks: number,
  google: GoogleReading | null,
): Promise<LinkResults> {
  const results: LinkResults = { events: [], proofs: [], awaitingConfirmation: false };
  const facts = pageFacts(report, write.row.url);
  const current = await lockTrackedLinks(write);
  const asChecked = new Map(checked.map((link) => [link.id, link]));
  for (const link of current) {
    const before = asChecked.get(link.id);
    if (!before || before.target !== link.target || before.match !== link.match) {
      results.awaitingConfirmation = true;
      continue;
    }
    const judged = judgeLink(link, report, facts, confirmChecks, google);
    if (judged.next.needsConfirmation) results.awaitingConfirmation = true;
    const proof = await evidenceToKeep(write, link, judged, shots);
    if (proof) results.proofs.push(proof);
    await recordObservation(write, link, judged);
    await recordTransition(write, link, judged);
    await recordVerdictChange(write.tx, {
      organizationId: write.row.organizationId,
      trackedLinkId: link.id,
      checkId: write.checkId,
      before: link.verdict ?? null,
      after: judged.verdict.verdict,
      at: write.finishedAt,
    });
    await updateTrackedLink(write, link, judged);
    results.events.push(...linkAlertEvents(write, link, judged));
  }
  return results;
}

/**
 * Locked and re-read: the stored state is the one this check moves on from. A link added or re-targeted
 * while the page was rendering was not looked for: it waits for the next check, soon.
 */
function lockTrackedLinks({ tx, row }: CheckWrite): Promise<TrackedLinkRow[]> {
  return tx
    .select()
    .from(trackedLink)
    .where(owned(trackedLink, row.organizationId, eq(trackedLink.monitorId, row.id)))
    .for("update");
}

/** The evidence record this check keeps for the link (evidence/reason.ts says when), or null. */
async function evidenceToKeep(
  { tx, row, checkId, finishedAt }: CheckWrite,
  link: TrackedLinkRow,
  { placement, next, verdict }: LinkJudgement,
  shots: CheckEvidence | null,
): Promise<EvidenceRecord | null> {
  const firstLiveCandidate = next.state === "live" && link.state !== "live";
  const reason = evidenceReason({
    stateBefore: link.state,
    stateAfter: next.state,
    verdictBefore: link.verdict ?? null,
    verdictAfter: verdict.verdict,
    // Asked before this check's own transition is written.
    wasLiveBefore: firstLiveCandidate ? await wasLive(tx, link.id) : true,
  });
  if (!reason) return null;
  return {
    organizationId: row.organizationId,
    monitorId: row.id,
    trackedLinkId: link.id,
    checkId,
    capturedAt: finishedAt,
    reason,
    target: link.target,
    match: link.match,
    link: currentLink(placement, null),
    verdict: verdict.verdict,
    // Not photographed before the transaction only if the link changed meanwhile (edited during the render).
    shot: shots?.shots.get(link.id) ?? null,
    googleShot: shots?.googleShots.get(link.id) ?? null,
  };
}

/** One observation per tracked link and check: what was seen, and the state before and after. */
async function recordObservation(
  { tx, row, checkId, finishedAt }: CheckWrite,
  link: TrackedLinkRow,
  { placement, next }: LinkJudgement,
): Promise<void> {
  await tx.insert(linkObservation).values({
    id: randomUUID(),
    organizationId: row.organizationId,
    checkId,
    trackedLinkId: link.id,
    observed: next.observed,
    link: placement.seen,
    stateBefore: link.state,
    stateAfter: next.state,
    createdAt: finishedAt,
  });
}

/** A state transition, when the state machine moved the link: the link kept before and the one seen now. */
async function recordTransition(
  { tx, row, checkId, finishedAt }: CheckWrite,
  link: TrackedLinkRow,
  { placement, next }: LinkJudgement,
): Promise<void> {
  if (next.state === link.state) return;
  await tx.insert(linkTransition).values({
    id: randomUUID(),
    organizationId: row.organizationId,
    trackedLinkId: link.id,
    monitorId: row.id,
    checkId,
    fromState: link.state,
    toState: next.state,
    before: link.current ? toStoredLink(link.current) : null,
    after: placement.seen,
    createdAt: finishedAt,
  });
}

/** The tracked link's row after the check: state, pending confirmation, current link, verdict, sightings. */
async function updateTrackedLink(
  { tx, row, finishedAt }: CheckWrite,
  link: TrackedLinkRow,
  { placement, next, verdict }: LinkJudgement,
): Promise<void> {
  const seen = placement.seen;
  await tx
    .update(trackedLink)
    .set({
      state: next.state,
      pendingState: next.pendingState,
      pendingCount: next.pendingCount,
      current: currentLink(placement, link.current ?? null),
      verdict: verdict.verdict,
      matchCount: placement.matchCount,
      firstSeenAt: seen ? (link.firstSeenAt ?? finishedAt) : link.firstSeenAt,
      lastSeenAt: seen ? finishedAt : link.lastSeenAt,
      updatedAt: finishedAt,
    })
    .where(owned(trackedLink, row.organizationId, eq(trackedLink.id, link.id)));
}

/** The link's alert events: the state machine's, then a verdict change. */
function linkAlertEvents({ row, checkId }: CheckWrite, link: TrackedLinkRow, { next, verdict }: LinkJudgement) {
  const events: NewAlertEvent[] = next.events.map((event) => ({
    type: event.type,
    monitorId: row.id,
    trackedLinkId: link.id,
    checkId,
    before: event.before,
    after: event.after,
  }));
  // A link that went missing is reported once, as link_missing: a verdict change rides along only alone.
  if (verdictEventDue(verdict, next.events.length) && link.verdict && verdict.verdict) {
    events.push({
      type: "verdict_changed",
      monitorId: row.id,
      trackedLinkId: link.id,
      checkId,
      before: { ...link.verdict },
      after: { ...verdict.verdict },
    });
  }
  return events;
}
