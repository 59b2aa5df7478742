import { renderGoogleView, type GoogleRender, type PageReport, type RenderPriority } from "../analyzer";
import { googleViewOf } from "../schemas/google-view";
import { readingOf, type GoogleReading } from "../verdict";
import { judgeLink, pageFacts } from "./placement";
import type { MonitorRow, TrackedLinkRow } from "./views";

/**
 * When a monitor renders Google's view (google-view.md §2), and which one stands for a check. A second render
 * costs a second page load, so it runs only when its answer can matter: on the monitor's first check, on
 * "Check now" and evidence captures (someone asked to see the page now), on every check whose visitor's render
 * would change a tracked link's state or verdict (before the check stores anything, so the verdict it writes
 * reads a fresh Google view), and otherwise at most once per GOOGLE_VIEW_INTERVAL_HOURS. Between renders the
 * last view stands, kept with the monitor (its `renderedAt` says how old it is). Off: none at all.
 */

/** Why a check or capture wants Google's view: someone asked (Check now, evidence) or the schedule. */
export type GoogleViewTrigger = "asked" | "schedule";

/** The Google view of one check: the one that stands for its verdicts, and the render it made, if it made one. */
export interface GoogleViewOutcome {
  reading: GoogleReading | null;
  /** This check's own render (to store with the monitor; its camera, with evidence, to release); null: none made. */
  fresh: GoogleRender | null;
}

export const NO_GOOGLE_VIEW: GoogleViewOutcome = { reading: null, fresh: null };

/** The Google view kept with the monitor, as the verdict reads it; null when the switch is off or none was rendered. */
export function storedReading(row: MonitorRow): GoogleReading | null {
  if (!row.googleView) return null;
  const view = googleViewOf(row.pageGoogleView);
  if (!view) return null;
  const hrefs = Array.isArray(row.googleViewHrefs)
    ? row.googleViewHrefs.filter((href): href is string => typeof href === "string")
    : null;
  return { view, hrefs: view.status === "ok" ? hrefs : null };
}

/** What deciding needs: the clock, the interval, and how a tracked link is judged (the check's confirmation rule). */
export interface GoogleViewRules {
  now: Date;
  intervalHours: number;
  confirmChecks: number;
}

/**
 * Whether this check (or capture) renders Google's view now (the module comment says when). The pending-change
 * rule judges every tracked link against the view that stands, as the check's transaction would.
 */
export function googleViewDue(
  row: MonitorRow,
  checked: readonly TrackedLinkRow[],
  report: PageReport,
  trigger: GoogleViewTrigger,
  rules: GoogleViewRules,
): boolean {
  if (!row.googleView) return false;
  if (trigger === "asked") return true;
  const stood = storedReading(row);
  if (!stood) return true;
  const age = rules.now.getTime() - new Date(stood.view.renderedAt).getTime();
  if (!(age < rules.intervalHours * 3_600_000)) return true;
  const facts = pageFacts(report, row.url);
  return checked.some((link) => {
    const { next, verdict } = judgeLink(link, report, facts, rules.confirmChecks, stood);
    return next.state !== link.state || !sameVerdict(link.verdict ?? null, verdict.verdict);
  });
}

function sameVerdict(a: TrackedLinkRow["verdict"] | null, b: TrackedLinkRow["verdict"] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.value === b.value && a.reasons.length === b.reasons.length && a.reasons.every((r, i) => r === b.reasons[i]);
}

/** How the render is made (the analyzer's front door; a benchmark may count calls). */
export interface GoogleViewRender {
  render?: typeof renderGoogleView;
  settings: Parameters<typeof renderGoogleView>[1]["settings"];
  clientKey: string;
  priority: RenderPriority;
  signal?: AbortSignal;
  /** Keep Googlebot's page open for evidence screenshots (its camera must be released). */
  evidence: boolean;
  now: () => Date;
}

/** The Google view of a check that loaded the page: a fresh render when due, else the one that stands. */
export async function googleViewFor(row: MonitorRow, due: boolean, how: GoogleViewRender): Promise<GoogleViewOutcome> {
  if (!row.googleView) return NO_GOOGLE_VIEW;
  if (!due) return { reading: storedReading(row), fresh: null };
  const render = how.render ?? renderGoogleView;
  const fresh = await render(new URL(row.url), {
    settings: how.settings,
    clientKey: how.clientKey,
    priority: how.priority,
    signal: how.signal,
    evidence: how.evidence,
    now: how.now,
  });
  return { reading: readingOf(fresh), fresh };
}

/** The monitor's columns after a check made a fresh render (none when it did not). */
export function googleViewColumns(
  outcome: GoogleViewOutcome,
): Partial<Pick<MonitorRow, "pageGoogleView" | "googleViewHrefs">> {
  if (!outcome.fresh || !outcome.reading) return {};
  return {
    pageGoogleView: outcome.reading.view,
    googleViewHrefs: outcome.reading.hrefs ? [...outcome.reading.hrefs] : null,
  };
}
