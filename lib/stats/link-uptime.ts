import type { AccountContext } from "../auth/guard";
import { notFound } from "../monitor/scope";
import type { Uptime, UptimeBatch } from "../schemas/stats";
import { uptimeOfLinks } from "./uptime-query";

/**
 * GET /api/account/links/{id}/uptime: one query. The route finds the link first, so an id of another
 * organization (or none) is 404 before a bad `?days=` is 400, as on every account route.
 */
export async function linkUptime(
  ctx: Pick<AccountContext, "db" | "organization" | "now">,
  linkId: string,
  days: number,
): Promise<Uptime> {
  const uptime = (await uptimeOfLinks(ctx.db, ctx.organization.id, [linkId], days, ctx.now())).get(linkId);
  // Deleted since the route found it.
  if (!uptime) throw notFound("tracked link");
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
