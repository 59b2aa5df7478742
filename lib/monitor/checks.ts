import { eq } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import type { Runtime } from "../db/runtime";
import { keysetPage, type PageRequest } from "../db/keyset";
import { monitorCheck } from "../db/schema";
import { runCheck, type CheckDeps } from "./check";
import { findMonitor, getMonitor } from "./monitors";
import { owned } from "./scope";
import { checkView, type MonitorView } from "./views";

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

/**
 * POST /monitors/{id}/check: runs a check now, in the request, and answers the updated monitor, also when
 * the page errored (the check happened; its outcome is in the monitor's status and the check history).
 * A check already running on the page (scheduled or another "Check now") is a 409.
 */
export async function checkNow(ctx: AccountContext, monitorId: string, signal?: AbortSignal): Promise<MonitorView> {
  await runCheck(checkDeps(ctx), ctx.organization.id, monitorId, { kind: "manual" }, signal);
  return getMonitor(ctx, monitorId);
}

/** GET /monitors/{id}/checks: newest first, a page at a time. */
export async function listChecks(ctx: AccountContext, monitorId: string, page: PageRequest) {
  const row = await findMonitor(ctx, monitorId);
  const keys = { createdAt: monitorCheck.createdAt, id: monitorCheck.id };
  const where = owned(monitorCheck, ctx.organization.id, eq(monitorCheck.monitorId, row.id));
  return keysetPage(ctx.db.select().from(monitorCheck).$dynamic(), { keys, direction: "desc", where, page }, checkView);
}
