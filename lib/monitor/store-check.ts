import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { PageReport } from "../analyzer";
import { recordAlertEvents, type NewAlertEvent } from "../alerts/events";
import { uniqueViolation } from "../db/errors";
import { monitor, monitorCheck } from "../db/schema";
import { ApiError } from "../errors";
import { insertEvidence, type EvidenceRecord } from "../evidence/record";
import { proofOf, type CheckEvidence } from "./check-evidence";
import { crawlerAccessAfter, type CrawlerAccessMove } from "./crawler-access";
import { recordLinkResults, type CheckWrite, type LinkResults } from "./record-link-results";
import type { CheckDeps, CheckResult, CheckTrigger, PageOutcome } from "./run-check";
import { nextCheckAt } from "./schedule";
import { notFound, owned } from "./scope";
import type { MonitorRow, TrackedLinkRow } from "./views";
import { googleViewColumns, type GoogleViewOutcome } from "./google-view";
import { compareViews } from "../verdict";

/**
 * Everything one check learned, stored in ONE transaction, as steps in this order:
 *  1. recordCheck: the check's row, the fence (one row per scheduled due time);
 *  2. recordLinkResults (record-link-results.ts): per tracked link, its observation, state transition
 *     (through the pure state machine, state.ts), verdict change (verdict-history.ts) and row, and what it
 *     leaves for the steps below: its alert events and evidence records;
 *  3. pageEvents: the page's own alert events (unreachable, noindex, crawler access: crawler-access.ts);
 *  4. updateMonitor: the monitor's status, page facts and next due time; the claim ends here, and a lost
 *     claim stores nothing;
 *  5. recordAlertEvents (lib/alerts/events.ts), then keepEvidence (lib/evidence/record.ts).
 * A transaction that fails is explained by storeFailure: the monitor was deleted meanwhile, or another
 * check stored this due time first.
 */

/** What runCheck hands over: the claimed monitor, the links it looked for, what the page gave, and when. */
export interface FinishedCheck {
  row: MonitorRow;
  checked: readonly TrackedLinkRow[];
  page: PageOutcome;
  trigger: CheckTrigger;
  startedAt: Date;
  leaseUntil: Date;
  shots: CheckEvidence | null;
  /** The Google view that stands for this check (google-view.md §2), and its fresh render if it made one. */
  google: GoogleViewOutcome;
}

class Superseded extends Error {}

const NO_LINK_RESULTS: Readonly<LinkResults> = { events: [], proofs: [], awaitingConfirmation: false };

export async function storeCheck(deps: CheckDeps, check: FinishedCheck): Promise<CheckResult> {
  const finishedAt = deps.now();
  const checkId = randomUUID();
  const { row, page } = check;
  const { settings } = deps;
  try {
    await deps.db.transaction(async (tx) => {
      const write: CheckWrite = { tx, row, checkId, finishedAt };
      await recordCheck(write, check);
      const links = page.report
        ? await recordLinkResults(
            write,
            check.checked,
            page.report,
            check.shots,
            settings.MONITOR_CONFIRM_CHECKS,
            check.google.reading,
          )
        : NO_LINK_RESULTS;
      const errors = page.outcome === "page_error" ? row.consecutivePageErrors + 1 : 0;
      const crawlers = page.report ? crawlerAccessAfter(row, page.report.page) : null;
      const events = [
        ...links.events,
        ...pageEvents(write, page, errors, settings.MONITOR_PAGE_ERROR_ALERT_AFTER),
        ...crawlerEvents(write, crawlers),
      ];
      const due = nextCheckAt({
        now: finishedAt,
        intervalMinutes: row.intervalMinutes,
        outcome: page.outcome,
        consecutivePageErrors: errors,
        awaitingConfirmation: links.awaitingConfirmation,
        confirmDelayMinutes: settings.MONITOR_CONFIRM_DELAY_MINUTES,
        random: deps.random(),
      });
      await updateMonitor(write, check, errors, due, crawlers?.columns ?? {});
      await recordAlertEvents(tx, row.organizationId, events, finishedAt);
      await keepEvidence(write, page.report, check.shots, links.proofs);
    });
  } catch (error) {
    return storeFailure(deps, check, error);
  }
  return { status: "applied", checkId, outcome: page.outcome };
}

/** The fence: one check row per scheduled due time, whatever the number of instances and retries. */
async function recordCheck(
  { tx, row, checkId, finishedAt }: CheckWrite,
  { page, trigger, startedAt }: FinishedCheck,
): Promise<void> {
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
}

/** The page's alert events: unreachable once its errors in a row reach `alertAfter`, noindex when it turns noindex. */
function pageEvents(
  { row, checkId }: CheckWrite,
  page: PageOutcome,
  errors: number,
  alertAfter: number,
): NewAlertEvent[] {
  const events: NewAlertEvent[] = [];
  if (page.outcome === "page_error" && errors === alertAfter) {
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
  return events;
}

/** crawler_access_changed when the check's robots.txt reading changed the set of disallowed agents. */
function crawlerEvents({ row, checkId }: CheckWrite, move: CrawlerAccessMove | null): NewAlertEvent[] {
  if (!move?.change) return [];
  return [
    {
      type: "crawler_access_changed",
      monitorId: row.id,
      trackedLinkId: null,
      checkId,
      before: { disallowed: move.change.before },
      after: { disallowed: move.change.after },
    },
  ];
}

/**
 * The monitor's row after the check: status, page facts, errors in a row and the next due time; the claim
 * ends. Only while this check still holds the claim: else it throws Superseded and nothing is stored.
 */
async function updateMonitor(
  { tx, row, finishedAt }: CheckWrite,
  { page, leaseUntil, google }: FinishedCheck,
  errors: number,
  due: Date,
  crawlerColumns: CrawlerAccessMove["columns"],
): Promise<void> {
  const pageFields = page.report
    ? {
        pageHttpStatus: page.report.page.httpStatus,
        pageNoindex: page.report.page.noindex,
        pageCanonicalUrl: page.report.page.canonicalUrl,
        pageTitle: page.report.page.title,
        pageFinalUrl: page.report.page.finalUrl,
        pageNoindexSource: page.report.page.noindexSource,
        pageRobotsTxt: page.report.page.robotsTxt,
        // Google's view: a fresh render replaces the kept one; the panel's comparison is this check's.
        ...googleViewColumns(google),
        googleViewComparison: compareViews(page.report.analysis.links, google.reading),
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
      ...crawlerColumns,
    })
    .where(owned(monitor, row.organizationId, eq(monitor.id, row.id), eq(monitor.checkingUntil, leaseUntil)))
    .returning({ id: monitor.id });
  // Our claim ran out and someone else holds the monitor now (or it was deleted): store nothing.
  if (!updated) throw new Superseded();
}

/**
 * The evidence records of the links this check moved, with the page's proof (hashed before the transaction
 * when the links were photographed, else now).
 */
async function keepEvidence(
  { tx, row }: CheckWrite,
  report: PageReport | null,
  shots: CheckEvidence | null,
  proofs: readonly EvidenceRecord[],
): Promise<void> {
  if (proofs.length > 0 && report) await insertEvidence(tx, shots?.proof ?? (await proofOf(row, report)), proofs);
}

/** Why nothing was stored, as runCheck answers it: 404 or 409 for "Check now", superseded when scheduled. */
async function storeFailure(deps: CheckDeps, { row, trigger }: FinishedCheck, error: unknown): Promise<CheckResult> {
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
