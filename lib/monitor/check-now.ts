import type { AccountContext } from "../auth/guard";
import { getMonitor } from "./monitors";
import { checkDeps, runCheck } from "./run-check";
import type { MonitorView } from "./views";

/**
 * POST /monitors/{id}/check: runs a check now, in the request, and answers the updated monitor, also when
 * the page errored (the check happened; its outcome is in the monitor's status and the check history).
 * A check already running on the page (scheduled or another "Check now") is a 409.
 */
export async function checkNow(ctx: AccountContext, monitorId: string, signal?: AbortSignal): Promise<MonitorView> {
  await runCheck(checkDeps(ctx), ctx.organization.id, monitorId, { kind: "manual" }, signal);
  return getMonitor(ctx, monitorId);
}
