import type { AccountContext } from "../auth/guard";
import { notFound } from "../monitor/scope";
import type { Uptime, UptimeBatch } from "../schemas/stats";
import { uptimeOfLinks } from "./uptime-query";

/**
 * GET /api/account/links/{id}/uptime in one query. An id of another organization (or none) is 404 before
 * a bad `?days=` is 400, as on every account route: the query runs with the default window when
 * `readDays` throws, and its error is rethrown only once the link is known to be the caller's.
 */
export async function linkUptime(
  ctx: Pick<AccountContext, "db" | "organization" | "now">,
  linkId: string,
  readDays: () => number,
): Promise<Uptime> {
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

/**
 * GET /api/account/links/uptime?ids=…: the strips of a list's page in one request and one query. Ids that
 * are not the organization's tracked links (another organization's, deleted, unknown) are left out, so
 * the answer says nothing about them; the others come in the order asked, each once.
 */
export async function linksUptime(
  ctx: Pick<AccountContext, "db" | "organization" | "now">,
  ids: readonly string[],
  days: number,
): Promise<UptimeBatch> {
  const unique = [...new Set(ids)];
  const found = await uptimeOfLinks(ctx.db, ctx.organization.id, unique, days, ctx.now());
  const items = unique.flatMap((id) => {
    const uptime = found.get(id);
    return uptime ? [{ id, ...uptime }] : [];
  });
  return { items };
}
