import type { Client } from "pg";
import { loadAverage } from "./machine";
import { checkSpan, drain, insertDueMonitors, newOrganization, type NewMonitor } from "./monitor-fleet";
import type { RunningServer } from "./server-process";

/**
 * What Google's view costs a monitor (google-view.md §5), for `npm run bench:monitor` (row `google`):
 * the same real pages checked by fleets of fresh monitors with the switch off and on, alternately (off,
 * on, off, on), on the same two production instances. A monitor's first check renders Google's view when
 * the switch is on, so every check of an "on" fleet is one that renders it; an "off" fleet is the check as
 * it was before this work (no second render). Printed: checks per hour of each arm (first start → last
 * end, the database's own times) and CPU seconds per check (both servers' process trees with Chromium,
 * and PostgreSQL), and how many "on" checks got an `ok` or `unavailable` view.
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

async function fleet(context: GoogleCostContext, monitors: readonly NewMonitor[], googleView: boolean): Promise<Arm> {
  const { db, servers } = context;
  const organization = await newOrganization(servers[0] as RunningServer, `google-${googleView ? "on" : "off"}`);
  const cpuBefore = context.cpu();
  const ids = await insertDueMonitors(db, organization, monitors, new Date(), { googleView });
  await drain(db, ids, `Google's view ${googleView ? "on" : "off"}`);
  const cpu = context.cpu() - cpuBefore;
  const span = await checkSpan(db, ids);
  const seconds = (span.last.getTime() - span.first.getTime()) / 1000;
  const views = await db.query<{ status: string | null; n: string }>(
    "SELECT page_google_view->>'status' AS status, count(*) AS n FROM monitor WHERE id = ANY($1) GROUP BY 1",
    [ids],
  );
  console.log(
    `Google's view ${googleView ? "on " : "off"}: ${ids.length} checks, outcomes ${JSON.stringify(span.outcomes)}, ` +
      `${seconds.toFixed(1)} s (${Math.round((ids.length / seconds) * 3600)}/h), ${(cpu / ids.length).toFixed(2)} CPU s a check; ` +
      `views ${JSON.stringify(Object.fromEntries(views.rows.map((row) => [row.status ?? "none", Number(row.n)])))}`,
  );
  await db.query("DELETE FROM monitor WHERE organization_id = $1", [organization]);
  return { checks: ids.length, seconds, cpu };
}

function total(arms: readonly Arm[]): Arm {
  return arms.reduce((sum, arm) => ({
    checks: sum.checks + arm.checks,
    seconds: sum.seconds + arm.seconds,
    cpu: sum.cpu + arm.cpu,
  }));
}

export async function googleViewCostRows(
  context: GoogleCostContext,
  monitors: readonly NewMonitor[],
): Promise<GoogleCostRow[]> {
  const load = loadAverage();
  console.log(`\nGoogle's view: ${monitors.length} real pages, fleets off / on / off / on; load average ${load}`);
  const off: Arm[] = [];
  const on: Arm[] = [];
  for (let round = 0; round < 2; round += 1) {
    off.push(await fleet(context, monitors, false));
    on.push(await fleet(context, monitors, true));
  }
  const without = total(off);
  const withView = total(on);
  const perHour = (arm: Arm) => (arm.checks / arm.seconds) * 3600;
  const cpuPerCheck = (arm: Arm) => arm.cpu / arm.checks;
  const rate = perHour(withView) / perHour(without);
  const cpu = cpuPerCheck(withView) / cpuPerCheck(without);
  const after = loadAverage();
  return [
    {
      work: `Monitor checks of ${monitors.length} real pages with Google's view (each renders it) vs without, two instances, default settings`,
      linklens: `${Math.round(perHour(withView))} checks/h`,
      baseline: `${Math.round(perHour(without))} checks/h without (switch off: the check before this work)`,
      ratio: `${(rate * 100).toFixed(1)} %`,
      target: "≥ 85 %",
      holds: rate >= 0.85 ? "yes" : "no",
      load: `${load} → ${after}`,
    },
    {
      work: "CPU of a check that renders Google's view vs one that does not (servers' trees with Chromium, PostgreSQL)",
      linklens: `${cpuPerCheck(withView).toFixed(2)} CPU s/check`,
      baseline: `${cpuPerCheck(without).toFixed(2)} CPU s/check`,
      ratio: `${cpu.toFixed(2)}×`,
      target: "≤ 2.1×",
      holds: cpu <= 2.1 ? "yes" : "no",
      load: `${load} → ${after}`,
    },
  ];
}
