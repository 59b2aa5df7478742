import { eq } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { getConfig, type Config } from "../config";
import type { Db } from "../db/client";
import { afterCursor, keysetOrder, toPage, type PageRequest } from "../db/keyset";
import { monitorCheck } from "../db/schema";
import { runCheck, type CheckDeps } from "./check";
import type { MonitorDeps } from "./deps";
import { findMonitor, getMonitor } from "./monitors";
import { owned } from "./scope";
import { checkView, type MonitorView } from "./views";

/** The check dependencies of this process: the configuration, the real clock and Math.random's jitter. */
export function checkDeps(db: Db, config: Config = getConfig()): CheckDeps {
  return { db, settings: config, now: () => new Date(), random: Math.random, leaseMs: config.MONITOR_JOB_EXPIRE_SECONDS * 1000 };
}

/**
 * POST /monitors/{id}/check: runs a check now, in the request, and answers the updated monitor, also when
 * the page errored (the check happened; its outcome is in the monitor's status and the check history).
 * A check already running on the page (scheduled or another "Check now") is a 409.
 */
export async function checkNow(deps: CheckDeps, ctx: AccountContext, monitorId: string, signal?: AbortSignal): Promise<MonitorView> {
  await runCheck(deps, ctx.organization.id, monitorId, { kind: "manual" }, signal);
  return getMonitor(deps.db, ctx.organization.id, monitorId);
}

/** GET /monitors/{id}/checks: newest first, a page at a time. */
export async function listChecks(deps: MonitorDeps, ctx: AccountContext, monitorId: string, page: PageRequest) {
  const row = await findMonitor(deps.db, ctx.organization.id, monitorId);
  const columns = { createdAt: monitorCheck.createdAt, id: monitorCheck.id };
  const rows = await deps.db
    .select()
    .from(monitorCheck)
    .where(owned(monitorCheck, ctx.organization.id, eq(monitorCheck.monitorId, row.id), afterCursor(columns, page.cursor, "desc")))
    .orderBy(...keysetOrder(columns, "desc"))
    .limit(page.limit + 1);
  const { rows: pageRows, nextCursor } = toPage(rows, page.limit);
  return { items: pageRows.map(checkView), nextCursor };
}
