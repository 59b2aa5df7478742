import { randomUUID } from "node:crypto";
import { and, eq, isNull, lte, or } from "drizzle-orm";
import { inspectUrl, type AnalyzerSettings, type PageReport } from "../analyzer";
import { recordAlertEvents, type NewAlertEvent } from "../alerts/events";
import { toStoredLink } from "../db/stored-link";
import { insertEvidence, type EvidenceRecord } from "../evidence/record";
import { evidenceReason } from "../evidence/reason";
import { proofOf, shootChanges, wasLive, type CheckEvidence } from "./check-evidence";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Runtime } from "../db/runtime";
import { linkObservation, linkTransition, monitor, monitorCheck, trackedLink } from "../db/schema";
import { ApiError, type ErrorCode } from "../errors";
import { uniqueViolation } from "../db/errors";
import { monitoredRenderOptions, notThePage } from "./monitored-render";
import { currentLink, judgeLink, pageFacts } from "./placement";
import { nextCheckAt } from "./schedule";
import { notFound, owned } from "./scope";
import { verdictEventDue } from "../verdict";
import { recordVerdictChange } from "./verdict-history";
import type { MonitorRow, TrackedLinkRow } from "./views";

/**
 * One check of a monitored page (account-api.md): claim the monitor, render the page through the
 * analyzer's front door with only the tracked targets' links checked, then store everything the check
 * learned in ONE transaction: the check, an observation per tracked link, the state changes (through the
 * pure state machine, state.ts) and verdict changes (verdict-history.ts), the monitor's status and next due time, the alert events, and the
 * evidence records of the links it moved (their screenshots are taken first, from the same render still
 * open: check-evidence.ts).
 *
 * A page that did not load as a 2xx HTML page (4xx, 5xx, timeout, a blocked address, not HTML, a bot wall
 * or challenge) changes no link's state: the check is a `page_error`, recorded with the page's status and
 * the analyzer's error code. A challenge page is recorded as `UNPROCESSABLE_PAGE` with its status: it is
 * the page refusing us, not evidence about the link.
 */

export type CheckSettings = AnalyzerSettings &
  Pick<Config, "MONITOR_CONFIRM_CHECKS" | "MONITOR_PAGE_ERROR_ALERT_AFTER" | "MONITOR_CONFIRM_DELAY_MINUTES">;

export interface CheckDeps {
  db: Db;
  settings: CheckSettings;
  /** Injectable clock. */
  now: () => Date;
  /** [0, 1) for the schedule's jitter (tests pass () => 0). */
  random: () => number;
  /** How long a claim holds the monitor; a crashed checker's claim simply runs out. */
  leaseMs: number;
  /** The render (the analyzer's front door); replaceable only so a benchmark can count calls. */
  inspect?: typeof inspectUrl;
}

/** What a check needs besides the runtime: Math.random's jitter and the lease of a claimed monitor. */
export function checkDeps(runtime: Runtime): CheckDeps {
  return {
    db: runtime.db,
    settings: runtime.settings,
    now: runtime.now,
    random: Math.random,
    leaseMs: runtime.settings.MONITOR_JOB_EXPIRE_SECONDS * 1000,
  };
}

/** "Check now" (the request waits for it) or a scheduled check of one due time. */
export type CheckTrigger = { kind: "manual" } | { kind: "schedule"; dueAt: Date };

export type CheckResult =
  { status: "applied"; checkId: string; outcome: "ok" | "page_error" } | { status: "superseded" };

/** A scheduled check found the monitor being checked by someone else: the job is retried later. */
export class MonitorBusyError extends Error {
  constructor() {
    super("the monitor is being checked by another worker");
    this.name = "MonitorBusyError";
  }
}

/** Errors of the page itself (they make a page_error); anything else (RATE_LIMITED: our own capacity) is retried. */
const PAGE_ERROR_CODES: ReadonlySet<ErrorCode> = new Set([
  "BLOCKED_URL",
  "BLOCKED_REDIRECT",
  "UNPROCESSABLE_PAGE",
  "UPSTREAM_ERROR",
  "INVALID_URL",
]);

interface PageOutcome {
  outcome: "ok" | "page_error";
  report: PageReport | null;
  pageStatus: number | null;
  errorCode: ErrorCode | null;
}

async function claim(
  deps: CheckDeps,
  organizationId: string,
  monitorId: string,
  trigger: CheckTrigger,
  leaseUntil: Date,
): Promise<MonitorRow | null> {
  const now = deps.now();
  const [row] = await deps.db
    .update(monitor)
    .set({ checkingUntil: leaseUntil })
    .where(
      owned(
        monitor,
        organizationId,
        eq(monitor.id, monitorId),
        or(isNull(monitor.checkingUntil), lte(monitor.checkingUntil, now)),
        trigger.kind === "schedule"
          ? and(eq(monitor.nextCheckAt, trigger.dueAt), eq(monitor.paused, false))
          : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/** Why a claim failed: for "Check now" a 404 or a 409; for a scheduled check busy (retry) or superseded (done). */
async function refusal(
  deps: CheckDeps,
  organizationId: string,
  monitorId: string,
  trigger: CheckTrigger,
): Promise<CheckResult> {
  const [row] = await deps.db
    .select()
    .from(monitor)
    .where(owned(monitor, organizationId, eq(monitor.id, monitorId)))
    .limit(1);
  if (trigger.kind === "manual") {
    if (!row) throw notFound("monitor");
    throw new ApiError("CONFLICT", "This page is being checked right now.", {
      hint: "Retry in a minute: the running check's result will be there by then.",
    });
  }
  // Gone, paused or already checked for this due time (the due time moved on): nothing to do.
  if (!row || row.paused || row.nextCheckAt.getTime() !== trigger.dueAt.getTime()) return { status: "superseded" };
  throw new MonitorBusyError();
}

async function release(deps: CheckDeps, organizationId: string, monitorId: string, leaseUntil: Date): Promise<void> {
  await deps.db
    .update(monitor)
    .set({ checkingUntil: null })
    .where(owned(monitor, organizationId, eq(monitor.id, monitorId), eq(monitor.checkingUntil, leaseUntil)))
    .catch(() => undefined);
}

async function loadPage(
  deps: CheckDeps,
  row: MonitorRow,
  links: readonly TrackedLinkRow[],
  trigger: CheckTrigger,
  signal: AbortSignal | undefined,
): Promise<PageOutcome> {
  const inspect = deps.inspect ?? inspectUrl;
  let report: PageReport;
  try {
    report = await inspect(
      new URL(row.url),
      await monitoredRenderOptions(
        deps.db,
        deps.settings,
        row,
        links,
        trigger.kind === "manual" ? "interactive" : "background",
        signal,
      ),
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof ApiError && PAGE_ERROR_CODES.has(error.code)) {
      return { outcome: "page_error", report: null, pageStatus: error.upstreamStatus, errorCode: error.code };
    }
    throw error;
  }
  if (notThePage(report)) {
    await report.camera?.release();
    return { outcome: "page_error", report: null, pageStatus: report.page.httpStatus, errorCode: "UNPROCESSABLE_PAGE" };
  }
  return { outcome: "ok", report, pageStatus: report.page.httpStatus, errorCode: null };
}

/**
 * Runs one check of a monitor of `organizationId`.
 * @throws ApiError NOT_FOUND / CONFLICT (manual), MonitorBusyError (scheduled, someone else holds it),
 *   ApiError RATE_LIMITED and any unexpected error (nothing stored; the caller retries).
 */
export async function runCheck(
  deps: CheckDeps,
  organizationId: string,
  monitorId: string,
  trigger: CheckTrigger,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const startedAt = deps.now();
  const leaseUntil = new Date(startedAt.getTime() + deps.leaseMs);
  const row = await claim(deps, organizationId, monitorId, trigger, leaseUntil);
  if (!row) return refusal(deps, organizationId, monitorId, trigger);

  let applied = false;
  try {
    const checked = await deps.db
      .select()
      .from(trackedLink)
      .where(owned(trackedLink, organizationId, eq(trackedLink.monitorId, row.id)));
    const page = await loadPage(deps, row, checked, trigger, signal);
    let shots: CheckEvidence | null;
    try {
      signal?.throwIfAborted();
      shots = page.report ? await shootChanges(deps.settings.MONITOR_CONFIRM_CHECKS, row, checked, page.report) : null;
    } finally {
      // The page's context closes while the check writes (never rejects): the check does not wait for it.
      void page.report?.camera?.release();
    }
    const result = await store(deps, row, checked, page, trigger, startedAt, leaseUntil, shots);
    applied = result.status === "applied";
    return result;
  } finally {
    if (!applied) await release(deps, organizationId, row.id, leaseUntil);
  }
}

class Superseded extends Error {}

async function store(
  deps: CheckDeps,
  row: MonitorRow,
  checked: readonly TrackedLinkRow[],
  page: PageOutcome,
  trigger: CheckTrigger,
  startedAt: Date,
  leaseUntil: Date,
  shots: CheckEvidence | null,
): Promise<CheckResult> {
  const finishedAt = deps.now();
  const checkId = randomUUID();
  const { settings } = deps;
  try {
    await deps.db.transaction(async (tx) => {
      // The fence: one check row per scheduled due time, whatever the number of instances and retries.
      await tx.insert(monitorCheck).values({
        id: checkId,
        organizationId: row.organizationId,
        monitorId: row.id,
        trigger: trigger.kind,
        dueAt: trigger.kind === "schedule" ? trigger.dueAt : null,
        startedAt,
        finishedAt,
        outcome: page.outcome,
        pageStatus: page.pageStatus,
        errorCode: page.errorCode,
        linksFound: page.report ? page.report.analysis.stats.total : null,
        noindex: page.report ? page.report.page.noindex : null,
        canonicalUrl: page.report ? page.report.page.canonicalUrl : null,
        createdAt: finishedAt,
      });

      const events: NewAlertEvent[] = [];
      const proofs: EvidenceRecord[] = [];
      let awaitingConfirmation = false;
      if (page.report) {
        const facts = pageFacts(page.report, row.url);
        // Locked and re-read: the stored state is the one this check moves on from. A link added or
        // re-targeted while the page was rendering was not looked for: it waits for the next check, soon.
        const current = await tx
          .select()
          .from(trackedLink)
          .where(owned(trackedLink, row.organizationId, eq(trackedLink.monitorId, row.id)))
          .for("update");
        const asChecked = new Map(checked.map((link) => [link.id, link]));
        for (const link of current) {
          const before = asChecked.get(link.id);
          if (!before || before.target !== link.target || before.match !== link.match) {
            awaitingConfirmation = true;
            continue;
          }
          const { placement, next, verdict } = judgeLink(link, page.report, facts, settings.MONITOR_CONFIRM_CHECKS);
          const seen = placement.seen;
          const kept = link.current ? toStoredLink(link.current) : null;
          if (next.needsConfirmation) awaitingConfirmation = true;
          const firstLiveCandidate = next.state === "live" && link.state !== "live";
          const reason = evidenceReason({
            stateBefore: link.state,
            stateAfter: next.state,
            verdictBefore: link.verdict ?? null,
            verdictAfter: verdict.verdict,
            // Asked before this check's own transition is written.
            wasLiveBefore: firstLiveCandidate ? await wasLive(tx, link.id) : true,
          });
          if (reason) {
            proofs.push({
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
            });
          }
          await tx.insert(linkObservation).values({
            id: randomUUID(),
            organizationId: row.organizationId,
            checkId,
            trackedLinkId: link.id,
            observed: next.observed,
            link: seen,
            stateBefore: link.state,
            stateAfter: next.state,
            createdAt: finishedAt,
          });
          if (next.state !== link.state) {
            await tx.insert(linkTransition).values({
              id: randomUUID(),
              organizationId: row.organizationId,
              trackedLinkId: link.id,
              monitorId: row.id,
              checkId,
              fromState: link.state,
              toState: next.state,
              before: kept,
              after: seen,
              createdAt: finishedAt,
            });
          }
          await recordVerdictChange(tx, {
            organizationId: row.organizationId,
            trackedLinkId: link.id,
            checkId,
            before: link.verdict ?? null,
            after: verdict.verdict,
            at: finishedAt,
          });
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
          for (const event of next.events) {
            events.push({
              type: event.type,
              monitorId: row.id,
              trackedLinkId: link.id,
              checkId,
              before: event.before,
              after: event.after,
            });
          }
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
        }
      }

      const errors = page.outcome === "page_error" ? row.consecutivePageErrors + 1 : 0;
      if (page.outcome === "page_error" && errors === settings.MONITOR_PAGE_ERROR_ALERT_AFTER) {
        events.push({
          type: "page_unreachable",
          monitorId: row.id,
          trackedLinkId: null,
          checkId,
          before: { status: row.status, consecutivePageErrors: row.consecutivePageErrors },
          after: {
            status: "page_error",
            consecutivePageErrors: errors,
            errorCode: page.errorCode,
            pageStatus: page.pageStatus,
          },
        });
      }
      if (page.report?.page.noindex && row.pageNoindex !== true) {
        events.push({
          type: "page_noindex",
          monitorId: row.id,
          trackedLinkId: null,
          checkId,
          before: { noindex: row.pageNoindex },
          after: { noindex: true, httpStatus: page.report.page.httpStatus },
        });
      }

      const due = nextCheckAt({
        now: finishedAt,
        intervalMinutes: row.intervalMinutes,
        outcome: page.outcome,
        consecutivePageErrors: errors,
        awaitingConfirmation,
        confirmDelayMinutes: settings.MONITOR_CONFIRM_DELAY_MINUTES,
        random: deps.random(),
      });
      const pageFields = page.report
        ? {
            pageHttpStatus: page.report.page.httpStatus,
            pageNoindex: page.report.page.noindex,
            pageCanonicalUrl: page.report.page.canonicalUrl,
            pageTitle: page.report.page.title,
            pageFinalUrl: page.report.page.finalUrl,
            pageNoindexSource: page.report.page.noindexSource,
            pageRobotsTxt: page.report.page.robotsTxt,
          }
        : { pageHttpStatus: page.pageStatus };
      const [updated] = await tx
        .update(monitor)
        .set({
          status: page.outcome === "ok" ? "ok" : "page_error",
          lastCheckedAt: finishedAt,
          nextCheckAt: due,
          consecutivePageErrors: errors,
          checkingUntil: null,
          updatedAt: finishedAt,
          ...pageFields,
        })
        .where(owned(monitor, row.organizationId, eq(monitor.id, row.id), eq(monitor.checkingUntil, leaseUntil)))
        .returning({ id: monitor.id });
      // Our claim ran out and someone else holds the monitor now (or it was deleted): store nothing.
      if (!updated) throw new Superseded();

      await recordAlertEvents(tx, row.organizationId, events, finishedAt);
      if (proofs.length > 0 && page.report)
        await insertEvidence(tx, shots?.proof ?? (await proofOf(row, page.report)), proofs);
    });
  } catch (error) {
    // Deleted while its page was rendering: the rows referencing it could not be written.
    const [still] = await deps.db
      .select({ id: monitor.id })
      .from(monitor)
      .where(owned(monitor, row.organizationId, eq(monitor.id, row.id)))
      .limit(1);
    if (!still) {
      if (trigger.kind === "manual") throw notFound("monitor");
      return { status: "superseded" };
    }
    if (error instanceof Superseded || (trigger.kind === "schedule" && uniqueViolation(error) !== null)) {
      if (trigger.kind === "manual")
        throw new ApiError("CONFLICT", "This page was checked by another check meanwhile.", {
          hint: "Reload the monitor to see its latest check.",
        });
      return { status: "superseded" };
    }
    throw error;
  }
  return { status: "applied", checkId, outcome: page.outcome };
}
