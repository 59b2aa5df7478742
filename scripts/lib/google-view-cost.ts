import type { Client } from "pg";
import { loadAverage } from "./machine";
import { checkSpan, drain, insertDueMonitors, newOrganization, type NewMonitor } from "./monitor-fleet";
import type { RunningServer } from "./server-process";

/**
 * What Google's view costs a monitor (google-view.md §5), for `npm run bench:monitor` (row `google`):
 * the same real pages checked by fleets of fresh monitors with the switch off and on, alternately (off,
 * on, off, on), on the same two production instances. Each fleet is checked three times: its first checks
 * and the checks that confirm what they found (with the switch on, both render Googlebot's view: the first
 * check always does, and confirming a tracked link's new state changes it), then a third round on the same
 * unchanged pages (the steady state of a monitor checked hourly: Google's view stands for
 * GOOGLE_VIEW_INTERVAL_HOURS, so none is rendered). An "off" fleet is the check as it was before this work.
 * Printed per round: checks per hour (first start → last end, the database's own times), CPU seconds per
 * check (both servers' process trees with Chromium, and PostgreSQL), and how many checks rendered Google's
 * view. The spec's setting — checks hourly, default settings — is a day of one rendering check (the
 * interval's) and 23 standing ones per monitor; that row is computed from the measured rounds, and so is a
 * monitor's first day (two rendering checks, 22 standing).
 */

export interface GoogleCostContext {
  db: Client;
  servers: RunningServer[];
  /** CPU seconds so far of the servers' trees and PostgreSQL. */
  cpu: () => number;
}

export interface GoogleCostRow {
  work: string;
  linklens: string;
  baseline: string;
  ratio: string;
  target: string;
  holds: string;
  load: string;
}

interface Arm {
  checks: number;
  seconds: number;
  cpu: number;
}

interface FleetArms {
  /** The first and the confirming checks: each renders Google's view when the switch is on. */
  rendering: Arm;
  /** Checks of unchanged pages: Google's view stands. */
  steady: Arm;
}

const GOOGLE_VIEW_STATUS =
  "SELECT page_google_view->>'status' AS status, count(*) AS n FROM monitor WHERE id = ANY($1) GROUP BY 1";
/** Monitors whose Google view was rendered at or after $2. */
const RENDERED_SINCE =
  "SELECT count(*) AS n FROM monitor WHERE id = ANY($1) AND (page_google_view->>'renderedAt')::timestamptz >= $2";

/** One round of checks of `ids`, due now: waits for a check of each started at or after the round began. */
async function round(
  context: GoogleCostContext,
  ids: readonly string[],
  label: string,
): Promise<Arm & { since: Date }> {
  const { db } = context;
  const since = (await db.query<{ now: Date }>("SELECT now() AS now")).rows[0]?.now ?? new Date();
  const cpuBefore = context.cpu();
  await db.query("UPDATE monitor SET next_check_at = $2 WHERE id = ANY($1)", [ids, since]);
  await drain(db, ids, label, { since });
  const cpu = context.cpu() - cpuBefore;
  const span = await checkSpan(db, ids, since);
  const seconds = (span.last.getTime() - span.first.getTime()) / 1000;
  console.log(
    `  ${label}: ${ids.length} checks, outcomes ${JSON.stringify(span.outcomes)}, ${seconds.toFixed(1)} s ` +
      `(${Math.round((ids.length / seconds) * 3600)}/h), ${(cpu / ids.length).toFixed(2)} CPU s a check`,
  );
  return { checks: ids.length, seconds, cpu, since };
}

async function fleet(
  context: GoogleCostContext,
  monitors: readonly NewMonitor[],
  googleView: boolean,
): Promise<FleetArms> {
  const { db, servers } = context;
  const name = `Google's view ${googleView ? "on " : "off"}`;
  const organization = await newOrganization(servers[0] as RunningServer, `google-${googleView ? "on" : "off"}`);
  // Inserted due in an hour, so that no check starts before the round's clock does.
  const ids = await insertDueMonitors(db, organization, monitors, new Date(Date.now() + 3_600_000), { googleView });
  const first = await round(context, ids, `${name}, first checks`);
  const views = await db.query<{ status: string | null; n: string }>(GOOGLE_VIEW_STATUS, [ids]);
  console.log(
    `  views ${JSON.stringify(Object.fromEntries(views.rows.map((row) => [row.status ?? "none", Number(row.n)])))}`,
  );
  const confirming = await round(context, ids, `${name}, confirming checks`);
  await reportRerenders(db, ids, confirming.since, "confirming");
  const steady = await round(context, ids, `${name}, checks of unchanged pages`);
  await reportRerenders(db, ids, steady.since, "unchanged-page");
  await db.query("DELETE FROM monitor WHERE organization_id = $1", [organization]);
  return { rendering: total([first, confirming]), steady };
}

async function reportRerenders(db: Client, ids: readonly string[], since: Date, label: string): Promise<void> {
  const rendered = await db.query<{ n: string }>(RENDERED_SINCE, [ids, since]);
  console.log(`  ${label} checks that rendered Google's view: ${rendered.rows[0]?.n ?? 0}`);
}

function total(arms: readonly Arm[]): Arm {
  return arms.reduce((sum, arm) => ({
    checks: sum.checks + arm.checks,
    seconds: sum.seconds + arm.seconds,
    cpu: sum.cpu + arm.cpu,
  }));
}

const perHour = (arm: Arm) => (arm.checks / arm.seconds) * 3600;
const cpuPerCheck = (arm: Arm) => arm.cpu / arm.checks;
/** Checks an hour over a day of hourly checks of which `rendering` render Google's view and the rest do not. */
const dayPerHour = (rendering: number, renderingArm: Arm, steady: Arm) =>
  24 / (rendering / perHour(renderingArm) + (24 - rendering) / perHour(steady));

export async function googleViewCostRows(
  context: GoogleCostContext,
  monitors: readonly NewMonitor[],
): Promise<GoogleCostRow[]> {
  const load = loadAverage();
  console.log(`\nGoogle's view: ${monitors.length} real pages, fleets off / on / off / on; load average ${load}`);
  const off: FleetArms[] = [];
  const on: FleetArms[] = [];
  for (let pass = 0; pass < 2; pass += 1) {
    off.push(await fleet(context, monitors, false));
    on.push(await fleet(context, monitors, true));
  }
  const renderingOff = total(off.map((arms) => arms.rendering));
  const renderingOn = total(on.map((arms) => arms.rendering));
  const steadyOff = total(off.map((arms) => arms.steady));
  const steadyOn = total(on.map((arms) => arms.steady));
  const after = loadAverage();
  const rateRow = (work: string, withView: number, without: number, target: string | null) => ({
    work,
    linklens: `${Math.round(withView)} checks/h`,
    baseline: `${Math.round(without)} checks/h without (switch off: the check before this work)`,
    ratio: `${((withView / without) * 100).toFixed(1)} %`,
    target: target ?? "— (information)",
    holds: target === null ? "—" : withView / without >= 0.85 ? "yes" : "no",
    load: `${load} → ${after}`,
  });
  const cpu = cpuPerCheck(renderingOn) / cpuPerCheck(renderingOff);
  return [
    rateRow(
      `Monitor checks of ${monitors.length} real pages checked hourly with Google's view vs without (a day: 1 check that renders it, the interval's, and 23 that do not; from the rows below), two instances, default settings`,
      dayPerHour(1, renderingOn, steadyOn),
      dayPerHour(1, renderingOff, steadyOff),
      "≥ 85 %",
    ),
    rateRow(
      `  a monitor's first day (its first and confirming checks render it, 22 do not)`,
      dayPerHour(2, renderingOn, steadyOn),
      dayPerHour(2, renderingOff, steadyOff),
      null,
    ),
    rateRow(
      `  first and confirming checks (each renders Google's view)`,
      perHour(renderingOn),
      perHour(renderingOff),
      null,
    ),
    rateRow(`  checks of unchanged pages (Google's view stands)`, perHour(steadyOn), perHour(steadyOff), null),
    {
      work: "CPU of a check that renders Google's view vs one that does not (first and confirming checks; servers' trees with Chromium, PostgreSQL)",
      linklens: `${cpuPerCheck(renderingOn).toFixed(2)} CPU s/check`,
      baseline: `${cpuPerCheck(renderingOff).toFixed(2)} CPU s/check`,
      ratio: `${cpu.toFixed(2)}×`,
      target: "≤ 2.1×",
      holds: cpu <= 2.1 ? "yes" : "no",
      load: `${load} → ${after}`,
    },
  ];
}
