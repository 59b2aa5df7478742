import { STACK } from "../charts/portfolio-bars";
import { LINK_STATE_LABELS, type LinkState } from "../schemas/monitors";
import { WEEKDAY_NAMES, type ScheduleCadence } from "../schemas/share-schedules";
import { REASON_WORDS, VERDICT_LABELS, type VerdictReason } from "../schemas/verdict";
import type { MovedLink, VerdictMove } from "./changes";
import type { VerdictCount } from "./report-data";
import type { ReportPeriod } from "./schedule-times";

/**
 * A scheduled report in words, shared by its email and its PDF (pure; plain strings for the caller to
 * escape). Times are UTC and written out the same way on every machine ("Monday 3 March 2031, 09:00 UTC").
 */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

const two = (value: number) => String(value).padStart(2, "0");

/** "Monday 3 March 2031, 09:00 UTC". */
export function utcWords(at: Date): string {
  return `${WEEKDAY_NAMES[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

/** "3 March 2031". */
export function dateWords(at: Date): string {
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

export function periodWords(period: ReportPeriod): string {
  return `From ${utcWords(period.start)} to ${utcWords(period.end)}.`;
}

/** "Weekly link report". */
export function reportKind(cadence: ScheduleCadence): string {
  return `${cadence === "weekly" ? "Weekly" : "Monthly"} link report`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function totalWords(total: number): string {
  return `${plural(total, "tracked link", "tracked links")} in this report.`;
}

/** "9 live, 2 missing, 1 broken" (states with none left out; "none" when there is no link). */
export function stateCountWords(states: Record<LinkState, number>): string {
  const parts = STACK.filter((state) => states[state] > 0).map(
    (state) => `${states[state]} ${LINK_STATE_LABELS[state].toLowerCase()}`,
  );
  return parts.length > 0 ? parts.join(", ") : "none";
}

const VERDICT_COUNT_WORDS: Record<VerdictCount, [string, string]> = {
  counts: ["counts", "count"],
  at_risk: ["at risk", "at risk"],
  does_not_count: ["doesn't count", "don't count"],
  none: ["without a verdict yet", "without a verdict yet"],
};

/** "8 count, 1 at risk, 3 don't count, 2 without a verdict yet". */
export function verdictCountWords(verdicts: Record<VerdictCount, number>): string {
  const order: VerdictCount[] = ["counts", "at_risk", "does_not_count", "none"];
  const parts = order
    .filter((value) => verdicts[value] > 0)
    .map((value) => {
      const [one, many] = VERDICT_COUNT_WORDS[value];
      return `${verdicts[value]} ${verdicts[value] === 1 ? one : many}`;
    });
  return parts.length > 0 ? parts.join(", ") : "none";
}

export function changesHeading(sinceLastReport: boolean, cadence: ScheduleCadence): string {
  return sinceLastReport
    ? "What changed since the last report"
    : `What changed in the last ${cadence === "weekly" ? "week" : "month"}`;
}

/** "https://mysite.example/x on https://blog.example/post: now missing (since Saturday 8 March 2031, 14:02 UTC)". */
export function movedWords(link: MovedLink): string {
  return `${link.target} on ${link.pageUrl}: now ${LINK_STATE_LABELS[link.to].toLowerCase()} (since ${utcWords(link.at)})`;
}

/** "… on …: Counts → Doesn't count (Link is nofollow)". */
export function verdictMoveWords(move: VerdictMove): string {
  return `${move.target} on ${move.pageUrl}: ${VERDICT_LABELS[move.from]} → ${VERDICT_LABELS[move.to]}${reasonsSuffix(move.reasons)}`;
}

function reasonsSuffix(reasons: readonly VerdictReason[]): string {
  return reasons.length > 0 ? ` (${reasons.map((reason) => REASON_WORDS[reason]).join("; ")})` : "";
}

export const NOTHING_CHANGED = "Nothing changed: no link was lost or restored, and no verdict changed.";
