import { and, eq, isNull, lte, or } from "drizzle-orm";
import { inspectUrl, type AnalyzerSettings, type PageReport, type renderGoogleView } from "../analyzer";
import { shootChanges, type CheckEvidence } from "./check-evidence";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Runtime } from "../db/runtime";
import { monitor, trackedLink } from "../db/schema";
import { ApiError, type ErrorCode } from "../errors";
import { monitoredRenderOptions, notThePage } from "./monitored-render";
import { notFound, owned } from "./scope";
import { storeCheck } from "./store-check";
import { googleViewDue, googleViewFor, NO_GOOGLE_VIEW, type GoogleViewOutcome } from "./google-view";
import type { MonitorRow, TrackedLinkRow } from "./views";

/**
 * One check of a monitored page (docs/spec/account-api.md): claim the monitor, render the page through the
 * analyzer's front door with only the tracked targets' links checked, photograph the links it moves from the
 * same render still open (check-evidence.ts), then store everything the check learned in ONE transaction
 * (store-check.ts: the check, an observation per tracked link, the state and verdict changes, the monitor's
 * status and next due time, the alert events and the evidence records). A check that stored nothing gives
 * its claim back.
 *
 * A page that did not load as a 2xx HTML page (4xx, 5xx, timeout, a blocked address, not HTML, a bot wall
 * or challenge) changes no link's state: the check is a `page_error`, recorded with the page's status and
 * the analyzer's error code. A challenge page is recorded as `UNPROCESSABLE_PAGE` with its status: it is
 * the page refusing us, not evidence about the link.
 */

export type CheckSettings = AnalyzerSettings &
  Pick<
    Config,
    | "MONITOR_CONFIRM_CHECKS"
    | "MONITOR_PAGE_ERROR_ALERT_AFTER"
    | "MONITOR_CONFIRM_DELAY_MINUTES"
    | "GOOGLE_VIEW_INTERVAL_HOURS"
  >;

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
  /** Googlebot's render (google-view.md §2), likewise. */
  renderGoogle?: typeof renderGoogleView;
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

/** What the page gave the check: a report, or the page's error (status and code). */
export interface PageOutcome {
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
 * Google's view for a check whose page loaded (google-view.md §2, lib/monitor/google-view.ts): rendered now
 * when due (first check, Check now, a pending change of a state or verdict, the interval), before anything
 * is stored; else the one kept with the monitor.
 */
async function checkGoogleView(
  deps: CheckDeps,
  row: MonitorRow,
  checked: readonly TrackedLinkRow[],
  report: PageReport,
  trigger: CheckTrigger,
  signal: AbortSignal | undefined,
): Promise<GoogleViewOutcome> {
  const due = googleViewDue(row, checked, report, trigger.kind === "manual" ? "asked" : "schedule", {
    now: deps.now(),
    intervalHours: deps.settings.GOOGLE_VIEW_INTERVAL_HOURS,
    confirmChecks: deps.settings.MONITOR_CONFIRM_CHECKS,
  });
  return googleViewFor(row, due, {
    render: deps.renderGoogle,
    settings: deps.settings,
    clientKey: `monitor:${row.organizationId}`,
    priority: trigger.kind === "manual" ? "interactive" : "background",
    signal,
    // Googlebot's page stays open for the screenshots of links whose verdict names Google's view.
    evidence: true,
    now: deps.now,
  });
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
    let google: GoogleViewOutcome = NO_GOOGLE_VIEW;
    try {
      google = page.report ? await checkGoogleView(deps, row, checked, page.report, trigger, signal) : NO_GOOGLE_VIEW;
      signal?.throwIfAborted();
      shots = page.report
        ? await shootChanges(deps.settings.MONITOR_CONFIRM_CHECKS, row, checked, page.report, google)
        : null;
    } finally {
      // The pages' contexts close while the check writes (never rejects): the check does not wait for them.
      void page.report?.camera?.release();
      void google.fresh?.camera?.release();
    }
    const result = await storeCheck(deps, { row, checked, page, trigger, startedAt, leaseUntil, shots, google });
    applied = result.status === "applied";
    return result;
  } finally {
    if (!applied) await release(deps, organizationId, row.id, leaseUntil);
  }
}
