import { asc, gte, inArray, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { linkTransition, monitor, verdictTransition } from "../db/schema";
import { owned } from "../monitor/scope";
import type { ResolvedBranding } from "../schemas/branding";
import { LINK_STATES, type LinkState } from "../schemas/monitors";
import type { ScheduleCadence } from "../schemas/share-schedules";
import type { DailyStatsDay } from "../schemas/stats";
import { VERDICT_VALUES, type VerdictValue } from "../schemas/verdict";
import { scopedLinkIds, scopedLinks, type ScopedLink } from "../shares/scope";
import type { ShareRow } from "../shares/shares";
import { dailyCounts, type Change } from "../stats/daily";
import { nextDayStart, utcDay, windowDays } from "../stats/days";
import { emptyTally } from "../stats/kinds";
import { periodChanges, type PeriodChanges, type StateChange, type VerdictChange } from "./changes";
import type { ReportPeriod } from "./schedule-times";

/**
 * Everything a scheduled report says, read from the database once and drawn twice (the email, the PDF):
 * the links in scope now (every one, with page, target, state, verdict and last check), their counts by
 * state and by verdict, what changed in the period, and the chart of the period (the same links counted
 * per UTC day, worked back from now by lib/stats/daily.ts as the portfolio chart is). Links deleted
 * since are not in it: a report is about what is tracked now.
 */

export type VerdictCount = VerdictValue | "none";

export interface ReportContent {
  branding: ResolvedBranding;
  title: string;
  /** What the share covers, in words: `tag “guest posts”`, or the monitored page's URL. */
  covers: string;
  cadence: ScheduleCadence;
  period: ReportPeriod;
  /** True when a report went out before: "since the last report" rather than "in the last week". */
  sinceLastReport: boolean;
  total: number;
  states: Record<LinkState, number>;
  verdicts: Record<VerdictCount, number>;
  changes: PeriodChanges;
  links: ScopedLink[];
  chart: DailyStatsDay[];
  /** The report on the web (/r/…), open while the share is. */
  reportUrl: string;
  expiresAt: Date | null;
}

/** Links read per query. */
const BATCH = 1_000;
/** The chart draws at most a year of days (a schedule that sent nothing for longer still gets one report). */
const MAX_CHART_DAYS = 366;

export interface ReportInput {
  share: ShareRow;
  branding: ResolvedBranding;
  cadence: ScheduleCadence;
  period: ReportPeriod;
  sinceLastReport: boolean;
  reportUrl: string;
}

export async function gatherReport(db: Pick<Db, "select">, input: ReportInput): Promise<ReportContent> {
  const { share: row, period } = input;
  const links: ScopedLink[] = [];
  for (let offset = 0; ; offset += BATCH) {
    const batch = await scopedLinks(db, row, offset, BATCH);
    links.push(...batch);
    if (batch.length < BATCH) break;
  }
  const days = chartDays(period);
  const since = new Date(Math.min(period.start.getTime(), nextDayStart(days[0] as string).getTime()));
  const ids = scopedLinkIds(db, row);
  /** The report's links' transitions from the chart's first day to the period's end. */
  const inWindow = (table: typeof linkTransition | typeof verdictTransition) =>
    owned(
      table,
      row.organizationId,
      inArray(table.trackedLinkId, ids),
      gte(table.createdAt, since),
      lte(table.createdAt, period.end),
    );
  const states: StateChange[] = await db
    .select({
      trackedLinkId: linkTransition.trackedLinkId,
      fromState: linkTransition.fromState,
      toState: linkTransition.toState,
      at: linkTransition.createdAt,
    })
    .from(linkTransition)
    .where(inWindow(linkTransition))
    .orderBy(asc(linkTransition.createdAt), asc(linkTransition.id));
  const verdicts: VerdictChange[] = await db
    .select({
      trackedLinkId: verdictTransition.trackedLinkId,
      fromValue: verdictTransition.fromValue,
      toValue: verdictTransition.toValue,
      at: verdictTransition.createdAt,
    })
    .from(verdictTransition)
    .where(inWindow(verdictTransition))
    .orderBy(asc(verdictTransition.createdAt), asc(verdictTransition.id));
  const places = links.map((link) => ({
    id: link.id,
    pageUrl: link.pageUrl,
    target: link.target,
    reasons: link.verdict?.reasons ?? [],
  }));
  return {
    branding: input.branding,
    title: row.title,
    covers: row.scope === "tag" ? `tag “${row.tag ?? ""}”` : await monitorUrl(db, row),
    cadence: input.cadence,
    period,
    sinceLastReport: input.sinceLastReport,
    total: links.length,
    states: countBy(LINK_STATES, links, (link) => link.state),
    verdicts: countBy([...VERDICT_VALUES, "none"] as const, links, (link) => link.verdict?.value ?? "none"),
    changes: periodChanges(period, places, states, verdicts),
    links,
    chart: chartOf(days, links, states, verdicts),
    reportUrl: input.reportUrl,
    expiresAt: row.expiresAt,
  };
}

function countBy<K extends string>(keys: readonly K[], links: readonly ScopedLink[], key: (link: ScopedLink) => K) {
  const counts = Object.fromEntries(keys.map((name) => [name, 0])) as Record<K, number>;
  for (const link of links) counts[key(link)] += 1;
  return counts;
}

/** The UTC days of the period, oldest first (the last is the day of its end), at most a year of them. */
export function chartDays(period: ReportPeriod): string[] {
  const span = Math.round((Date.parse(utcDay(period.end)) - Date.parse(utcDay(period.start))) / 86_400_000) + 1;
  return windowDays(period.end, Math.min(MAX_CHART_DAYS, Math.max(1, span)));
}

/**
 * The links counted by state and verdict at the end of each day: from their counts now, each change
 * after a day's end undone (lib/stats/daily.ts), a link not counted before the day it was tracked.
 */
function chartOf(
  days: readonly string[],
  links: readonly ScopedLink[],
  states: readonly StateChange[],
  verdicts: readonly VerdictChange[],
): DailyStatsDay[] {
  const now = emptyTally();
  for (const link of links) {
    now[link.state] += 1;
    if (link.verdict) now[link.verdict.value] += 1;
  }
  const from = nextDayStart(days[0] as string);
  const changes: Change[] = [];
  for (const link of links)
    if (link.createdAt >= from) changes.push({ day: utcDay(link.createdAt), kind: "pending", delta: 1 });
  for (const change of states)
    if (change.at >= from)
      changes.push(
        { day: utcDay(change.at), kind: change.fromState, delta: -1 },
        { day: utcDay(change.at), kind: change.toState, delta: 1 },
      );
  for (const change of verdicts)
    if (change.at >= from) {
      if (change.fromValue) changes.push({ day: utcDay(change.at), kind: change.fromValue, delta: -1 });
      if (change.toValue) changes.push({ day: utcDay(change.at), kind: change.toValue, delta: 1 });
    }
  return dailyCounts(days, now, changes);
}

/** A monitor share's page (also when it tracks no link). */
async function monitorUrl(db: Pick<Db, "select">, row: ShareRow): Promise<string> {
  const [found] = await db
    .select({ url: monitor.url })
    .from(monitor)
    .where(owned(monitor, row.organizationId, inArray(monitor.id, [row.monitorId ?? ""])))
    .limit(1);
  return found?.url ?? "";
}
