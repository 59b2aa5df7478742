import { desc, inArray, sql } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { audit, monitor } from "../db/schema";
import { owned } from "../monitor/scope";
import type { Share, ShareChoices } from "../schemas/shares";

/**
 * What the Reports page offers to share (the organization's tags, its newest monitored pages and saved
 * audits) and the words for what each listed share covers. For the app's page, not the API.
 */

/** Offered in the form's lists: enough to pick from; a page is shared from its own list too. */
const CHOICES = 200;

export async function shareChoices(ctx: Pick<AccountContext, "db" | "organization">): Promise<ShareChoices> {
  const organizationId = ctx.organization.id;
  const tags = await ctx.db
    .selectDistinct({ tag: sql<string>`unnest(${monitor.tags})` })
    .from(monitor)
    .where(owned(monitor, organizationId))
    .orderBy(sql`1`);
  const monitors = await ctx.db
    .select({ id: monitor.id, url: monitor.url })
    .from(monitor)
    .where(owned(monitor, organizationId))
    .orderBy(monitor.url)
    .limit(CHOICES);
  const audits = await ctx.db
    .select({ id: audit.id, url: audit.url, title: audit.title, createdAt: audit.createdAt })
    .from(audit)
    .where(owned(audit, organizationId))
    .orderBy(desc(audit.createdAt))
    .limit(CHOICES);
  return {
    tags: tags.map((row) => row.tag),
    monitors,
    audits: audits.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

/** For each share, what it covers in words: the tag, the monitored page's URL, the audited page's URL. */
export async function shareSubjects(
  ctx: Pick<AccountContext, "db" | "organization">,
  shares: readonly Share[],
): Promise<Record<string, string>> {
  const organizationId = ctx.organization.id;
  const monitorIds = shares.flatMap((item) => (item.monitorId ? [item.monitorId] : []));
  const auditIds = shares.flatMap((item) => (item.auditId ? [item.auditId] : []));
  const pages =
    monitorIds.length > 0
      ? await ctx.db
          .select({ id: monitor.id, url: monitor.url })
          .from(monitor)
          .where(owned(monitor, organizationId, inArray(monitor.id, monitorIds)))
      : [];
  const audited =
    auditIds.length > 0
      ? await ctx.db
          .select({ id: audit.id, url: audit.url })
          .from(audit)
          .where(owned(audit, organizationId, inArray(audit.id, auditIds)))
      : [];
  const urls = new Map([...pages, ...audited].map((row) => [row.id, row.url]));
  return Object.fromEntries(
    shares.map((item) => [
      item.id,
      item.scope === "tag"
        ? `Tag “${item.tag}”`
        : item.scope === "monitor"
          ? `Page ${urls.get(item.monitorId ?? "") ?? ""}`
          : `Audit of ${urls.get(item.auditId ?? "") ?? ""}`,
    ]),
  );
}
