import type { AccountContext } from "../auth/guard";
import { notFound } from "../monitor/scope";
import type { Uptime } from "../schemas/stats";
import { uptimeOfLinks } from "./uptime-query";

/**
 * GET /api/account/links/{id}/uptime in one query. An id of another organization (or none) is 404 before
 * a bad `?days=` is 400, as on every account route: the query runs with the default window when
 * `readDays` throws, and its error is rethrown only once the link is known to be the caller's.
 */
export async function linkUptime(ctx: Pick<AccountContext, "db" | "organization" | "now">, linkId: string, readDays: () => number): Promise<Uptime> {
  let days = 90;
  let invalid: unknown = null;
  try {
    days = readDays();
  } catch (error) {
    invalid = error;
  }
  const uptime = (await uptimeOfLinks(ctx.db, ctx.organization.id, [linkId], days, ctx.now())).get(linkId);
  if (!uptime) throw notFound("tracked link");
  if (invalid) throw invalid;
  return uptime;
}
