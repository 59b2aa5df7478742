import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { siteOf } from "../analyzer";
import { normalizePasteDomain } from "../api/paste-request-domain";
import type { CreateGroupInput, DomainGroup, UpdateGroupInput } from "../schemas/domain-groups";
import type { AccountContext } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import type { Db } from "../db/client";
import { uniqueViolation } from "../db/errors";
import { keysetPage, type PageRequest } from "../db/keyset";
import { domainGroup, domainGroupSite } from "../db/schema";
import { ApiError } from "../errors";

/**
 * Domain groups (docs/spec/account-api.md "Domain groups"): an organization's sister sites, internal to each
 * other in its audits and monitor checks. A group lists hostnames; what counts is each hostname's site
 * (registrable domain, siteOf), and a site belongs to at most one group of an organization. The
 * domain_group_site rows are that rule in the database (primary key organization + site), rewritten in
 * the same transaction as the group, so classification (loadDomainGroups) never sees a half-saved group.
 */

type Row = typeof domainGroup.$inferSelect;
/** The unique index on (organization, lower(name)) in lib/db/schema/domain-groups.ts. */
const NAME_INDEX = "domain_group_org_name_uq";
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

function view(row: Row): DomainGroup {
  return {
    id: row.id,
    name: row.name,
    domains: row.domains,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const notFound = () =>
  new ApiError("NOT_FOUND", "No domain group with this id in your organization.", {
    hint: "Use an id from GET /api/account/domain-groups.",
  });

/**
 * Hostnames as stored (lowercased, punycode, no trailing dot, like the paste-mode `domain`), duplicates
 * collapsed in first-mention order, and the sites they stand for. A bad entry is a 400 naming its index.
 */
export function normalizeDomains(raw: readonly string[]): {
  domains: string[];
  sites: { site: string; hostname: string }[];
} {
  const domains: string[] = [];
  const sites = new Map<string, string>();
  raw.forEach((entry, index) => {
    let hostname: string;
    try {
      hostname = normalizePasteDomain(entry);
    } catch {
      throw new ApiError("INVALID_REQUEST", `domains.${index}: "${entry.trim().slice(0, 100)}" is not a hostname.`, {
        hint: 'List bare hostnames such as "example.com" or "blog.example.org" (no scheme, path or port).',
      });
    }
    if (domains.includes(hostname)) return;
    domains.push(hostname);
    const site = siteOf(hostname);
    if (!sites.has(site)) sites.set(site, hostname);
  });
  return { domains, sites: [...sites].map(([site, hostname]) => ({ site, hostname })) };
}

/** The organization's groups, oldest first (the order they were made in), a page at a time. */
export async function listGroups(ctx: AccountContext, page: PageRequest) {
  const { db } = ctx;
  const keys = { createdAt: domainGroup.createdAt, id: domainGroup.id };
  return keysetPage(
    db.select().from(domainGroup).$dynamic(),
    { keys, direction: "asc", where: eq(domainGroup.organizationId, ctx.organization.id), page },
    view,
  );
}

async function findGroup(db: Pick<Db, "select">, ctx: AccountContext, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(domainGroup)
    .where(and(eq(domainGroup.organizationId, ctx.organization.id), eq(domainGroup.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function getGroup(ctx: AccountContext, id: string): Promise<DomainGroup> {
  const { db } = ctx;
  return view(await findGroup(db, ctx, id));
}

/** 404 unless the group exists in the organization: the check order looks ids up before reading the body. */
export async function assertGroupExists(ctx: AccountContext, id: string): Promise<void> {
  const { db } = ctx;
  await findGroup(db, ctx, id);
}

function nameTaken(name: string): ApiError {
  return new ApiError("CONFLICT", `A domain group named "${name}" already exists.`, {
    hint: "Names are unique in an organization (ignoring case): choose another name.",
  });
}

/** 409 when another group of the organization has the name (case-insensitive, like the unique index). */
async function assertNameFree(
  tx: Pick<Db, "select">,
  ctx: AccountContext,
  name: string,
  selfId?: string,
): Promise<void> {
  const [row] = await tx
    .select({ id: domainGroup.id })
    .from(domainGroup)
    .where(
      and(
        eq(domainGroup.organizationId, ctx.organization.id),
        sql`lower(${domainGroup.name}) = lower(${name})`,
        selfId ? ne(domainGroup.id, selfId) : undefined,
      ),
    )
    .limit(1);
  if (row) throw nameTaken(name);
}

/** 409 naming the group that already has one of these sites. */
async function assertSitesFree(
  tx: Pick<Db, "select">,
  ctx: AccountContext,
  sites: { site: string; hostname: string }[],
  selfId?: string,
): Promise<void> {
  const taken = await tx
    .select({ site: domainGroupSite.site, name: domainGroup.name })
    .from(domainGroupSite)
    .innerJoin(domainGroup, eq(domainGroup.id, domainGroupSite.groupId))
    .where(
      and(
        eq(domainGroupSite.organizationId, ctx.organization.id),
        inArray(
          domainGroupSite.site,
          sites.map((s) => s.site),
        ),
        selfId ? ne(domainGroupSite.groupId, selfId) : undefined,
      ),
    );
  if (taken.length === 0) return;
  const owner = new Map(taken.map((row) => [row.site, row.name]));
  const first = sites.find((s) => owner.has(s.site));
  if (!first) return;
  const what = first.hostname === first.site ? first.site : `${first.hostname} (site ${first.site})`;
  throw new ApiError("CONFLICT", `${what} is already in the domain group "${owner.get(first.site)}".`, {
    hint: "A site can be in one group of an organization only: remove it from that group first, or edit that group instead.",
  });
}

async function writeSites(tx: Tx, ctx: AccountContext, groupId: string, sites: { site: string }[]): Promise<void> {
  await tx.delete(domainGroupSite).where(eq(domainGroupSite.groupId, groupId));
  await tx
    .insert(domainGroupSite)
    .values(sites.map((s, position) => ({ organizationId: ctx.organization.id, site: s.site, groupId, position })));
}

/**
 * Runs a save; a unique violation the pre-checks could not see (another instance saved the same name or
 * site a moment ago) is answered like the pre-check would have answered it, naming the other group.
 */
async function saving<T>(
  db: Db,
  ctx: AccountContext,
  input: { name: string; sites: { site: string; hostname: string }[] },
  selfId: string | undefined,
  save: () => Promise<T>,
): Promise<T> {
  try {
    return await save();
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === null) throw error;
    if (constraint === NAME_INDEX) throw nameTaken(input.name);
    // The committed winner is visible now: the pre-checks, run again, name it.
    await assertNameFree(db, ctx, input.name, selfId);
    await assertSitesFree(db, ctx, input.sites, selfId);
    throw new ApiError("CONFLICT", "Another change to your domain groups was saved at the same moment.", {
      hint: "Reload the groups and try again.",
    });
  }
}

export async function createGroup(ctx: AccountContext, input: CreateGroupInput): Promise<DomainGroup> {
  const { db } = ctx;
  const { domains, sites } = normalizeDomains(input.domains);
  return saving(db, ctx, { name: input.name, sites }, undefined, () =>
    db.transaction(async (tx) => {
      await assertNameFree(tx, ctx, input.name);
      await assertSitesFree(tx, ctx, sites);
      const [row] = await tx
        .insert(domainGroup)
        .values({ id: randomUUID(), organizationId: ctx.organization.id, name: input.name, domains })
        .returning();
      if (!row) throw new Error("domain group insert returned nothing");
      await writeSites(tx, ctx, row.id, sites);
      await recordActivity(tx, {
        organizationId: ctx.organization.id,
        actor: ctx.user,
        action: "domain_group.create",
        target: { type: "domain_group", id: row.id },
        details: { name: row.name, domains },
      });
      return view(row);
    }),
  );
}

export async function updateGroup(ctx: AccountContext, id: string, input: UpdateGroupInput): Promise<DomainGroup> {
  const { db } = ctx;
  const normalized = input.domains ? normalizeDomains(input.domains) : null;
  const before = await findGroup(db, ctx, id);
  const name = input.name ?? before.name;
  return saving(db, ctx, { name, sites: normalized?.sites ?? [] }, id, () =>
    db.transaction(async (tx) => {
      const current = await findGroup(tx, ctx, id);
      if (input.name !== undefined) await assertNameFree(tx, ctx, input.name, id);
      if (normalized) await assertSitesFree(tx, ctx, normalized.sites, id);
      const [row] = await tx
        .update(domainGroup)
        .set({ name, domains: normalized?.domains ?? current.domains, updatedAt: new Date() })
        .where(eq(domainGroup.id, id))
        .returning();
      if (!row) throw notFound();
      if (normalized) await writeSites(tx, ctx, id, normalized.sites);
      await recordActivity(tx, {
        organizationId: ctx.organization.id,
        actor: ctx.user,
        action: "domain_group.update",
        target: { type: "domain_group", id },
        details: {
          before: { name: current.name, domains: current.domains },
          after: { name: row.name, domains: row.domains },
        },
      });
      return view(row);
    }),
  );
}

export async function deleteGroup(ctx: AccountContext, id: string): Promise<void> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const row = await findGroup(tx, ctx, id);
    // The site rows go with the group (ON DELETE CASCADE).
    await tx.delete(domainGroup).where(eq(domainGroup.id, row.id));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "domain_group.delete",
      target: { type: "domain_group", id: row.id },
      details: { name: row.name, domains: row.domains },
    });
  });
}

/** Every group of the organization by name, for pages that show all of them (at most a few hundred). */
export async function allGroups(ctx: AccountContext): Promise<DomainGroup[]> {
  const { db } = ctx;
  const rows = await db
    .select()
    .from(domainGroup)
    .where(eq(domainGroup.organizationId, ctx.organization.id))
    .orderBy(asc(domainGroup.createdAt), asc(domainGroup.id));
  return rows.map(view);
}
